// Import validations against a taxpayer profile: the contract's Validacion and its six flags, with the
// semantics of docs/cfdi.md#validation-flags (bloquear* turns a mismatch into an error).

import { classifyCfdi, profileParty, type Side } from './classify';
import { normalizeRfc } from './rfc';
import type { Cfdi } from './types';

/** Same shape as the profile's `validaciones_habilitadas` in the database. */
export interface ValidationFlags {
  validarRFCIngresos: boolean;
  validarRFCGastos: boolean;
  validarRegimenFiscal: boolean;
  validarUUIDDuplicado: boolean;
  bloquearSiRFCNoCoincide: boolean;
  bloquearSiRegimenNoCoincide: boolean;
}

/** What a new profile checks: everything it can, blocking on nothing. */
export const DEFAULT_VALIDATION_FLAGS: Readonly<ValidationFlags> = {
  validarRFCIngresos: true,
  validarRFCGastos: true,
  validarRegimenFiscal: true,
  validarUUIDDuplicado: true,
  bloquearSiRFCNoCoincide: false,
  bloquearSiRegimenNoCoincide: false,
};

export interface ValidationProfile {
  rfc: string;
  regimenesFiscales: string[];
  flags: ValidationFlags;
}

export interface ValidationContext {
  /** Where the CFDI is being filed (the classification, or the list the user uploaded into). */
  side: Side;
  /**
   * Another profile of the same account already holds this UUID. (Within one profile a UUID is
   * stored once: the importer reports it as a duplicate before validating.) Legitimate when one
   * profile issued it and the other received it, so it is a warning, never an error.
   */
  duplicateUuid: boolean;
}

export interface Validacion {
  rfcVerificado: boolean;
  regimenFiscalVerificado: boolean;
  uuidDuplicado: boolean;
  advertencias: string[];
  errores: string[];
  valido: boolean;
}

/** A `verificado` flag is true only when its check ran and passed. */
export function validateCfdi(cfdi: Cfdi, profile: ValidationProfile, ctx: ValidationContext): Validacion {
  const { flags } = profile;
  const classified = classifyCfdi(cfdi, profile.rfc);
  const advertencias = [...cfdi.warnings, ...('warnings' in classified ? classified.warnings : [])];
  const errores: string[] = [];
  const finding = (blocking: boolean, message: string) => (blocking ? errores : advertencias).push(message);

  const party = profileParty(cfdi, ctx.side);
  const rfcRule = ctx.side === 'income' ? flags.validarRFCIngresos : flags.validarRFCGastos;
  let rfcVerificado = false;
  if (rfcRule) {
    const profileRfc = normalizeRfc(profile.rfc);
    rfcVerificado = cfdi[party].rfc === profileRfc;
    if (!rfcVerificado) {
      finding(
        flags.bloquearSiRFCNoCoincide,
        `El RFC del ${party} (${cfdi[party].rfc}) no coincide con el RFC del perfil (${profileRfc})`,
      );
    }
  } else if ('error' in classified) {
    advertencias.push(classified.error); // with the RFC check off, still say the profile is neither party
  }

  let regimenFiscalVerificado = false;
  if (flags.validarRegimenFiscal) {
    const regimen = cfdi[party].regimenFiscal;
    if (regimen === undefined) {
      // CFDI 3.3 has no RegimenFiscalReceptor: nothing to compare, never blocking.
      advertencias.push(`CFDI ${cfdi.version} no incluye régimen del receptor; no se pudo verificar`);
    } else if (profile.regimenesFiscales.length === 0) {
      advertencias.push(
        'el perfil no tiene regímenes fiscales configurados; no se pudo verificar el régimen',
      );
    } else {
      regimenFiscalVerificado = profile.regimenesFiscales.includes(regimen);
      if (!regimenFiscalVerificado) {
        finding(
          flags.bloquearSiRegimenNoCoincide,
          `El régimen fiscal del ${party} (${regimen}) no está entre los del perfil (${profile.regimenesFiscales.join(', ')})`,
        );
      }
    }
  }

  const uuidDuplicado = flags.validarUUIDDuplicado && ctx.duplicateUuid;
  if (uuidDuplicado)
    advertencias.push(`UUID duplicado: ${cfdi.uuid} ya está registrado en otro perfil de la cuenta`);

  return {
    rfcVerificado,
    regimenFiscalVerificado,
    uuidDuplicado,
    advertencias,
    errores,
    valido: errores.length === 0,
  };
}
