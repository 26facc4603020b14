// The contract's Validacion: each flag on and off, each bloquear* on and off (docs/cfdi.md
// #validation-flags: bloquear turns the finding into an error, otherwise it is a warning).
import { describe, expect, it } from 'vitest';
import { type Cfdi, parseCfdi, type ValidationFlags, validateCfdi } from '../src';
import { cfdi40, EMISOR_RFC, RECEPTOR_RFC } from './build-cfdi';

function ok(input: string): Cfdi {
  const r = parseCfdi(input);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
}

const ALL_OFF: ValidationFlags = {
  validarRFCIngresos: false,
  validarRFCGastos: false,
  validarRegimenFiscal: false,
  validarUUIDDuplicado: false,
  bloquearSiRFCNoCoincide: false,
  bloquearSiRegimenNoCoincide: false,
};
const flags = (on: Partial<ValidationFlags>): ValidationFlags => ({ ...ALL_OFF, ...on });

// Emisor EKU9003173C9 regime 601; receptor COSC8001137NA regime 612.
const invoice = ok(cfdi40());
const income = { side: 'income', duplicateUuid: false } as const;
const expense = { side: 'expense', duplicateUuid: false } as const;
const emisorProfile = (f: ValidationFlags, regimenes = ['601']) => ({
  rfc: EMISOR_RFC,
  regimenesFiscales: regimenes,
  flags: f,
});
const receptorProfile = (f: ValidationFlags, regimenes = ['612']) => ({
  rfc: RECEPTOR_RFC,
  regimenesFiscales: regimenes,
  flags: f,
});

const CLEAN = {
  rfcVerificado: false,
  regimenFiscalVerificado: false,
  uuidDuplicado: false,
  advertencias: [],
  errores: [],
  valido: true,
};

describe('validarRFCIngresos', () => {
  it('on, emisor = profile → rfcVerificado', () => {
    expect(validateCfdi(invoice, emisorProfile(flags({ validarRFCIngresos: true })), income)).toEqual({
      ...CLEAN,
      rfcVerificado: true,
    });
  });

  it('on, emisor ≠ profile, bloquear off → warning, still valid', () => {
    const v = validateCfdi(
      invoice,
      { ...emisorProfile(flags({ validarRFCIngresos: true })), rfc: 'KIJ0906199R1' },
      income,
    );
    expect(v).toMatchObject({ rfcVerificado: false, errores: [], valido: true });
    expect(v.advertencias).toContain(
      `El RFC del emisor (${EMISOR_RFC}) no coincide con el RFC del perfil (KIJ0906199R1)`,
    );
  });

  it('on, emisor ≠ profile, bloquear on → error, not valid', () => {
    const f = flags({ validarRFCIngresos: true, bloquearSiRFCNoCoincide: true });
    const v = validateCfdi(invoice, { ...emisorProfile(f), rfc: 'KIJ0906199R1' }, income);
    expect(v).toMatchObject({
      rfcVerificado: false,
      errores: [`El RFC del emisor (${EMISOR_RFC}) no coincide con el RFC del perfil (KIJ0906199R1)`],
      valido: false,
    });
  });

  it('off → not verified, no RFC finding; the profile being neither party is still said', () => {
    const f = flags({ bloquearSiRFCNoCoincide: true });
    const v = validateCfdi(invoice, { ...emisorProfile(f), rfc: 'KIJ0906199R1' }, income);
    expect(v).toEqual({
      ...CLEAN,
      advertencias: [
        `El RFC del perfil (KIJ0906199R1) no es emisor (${EMISOR_RFC}) ni receptor (${RECEPTOR_RFC})`,
      ],
    });
  });

  it('does not apply to expenses', () => {
    const f = flags({ validarRFCIngresos: true, bloquearSiRFCNoCoincide: true });
    expect(validateCfdi(invoice, receptorProfile(f), expense)).toEqual(CLEAN);
  });
});

describe('validarRFCGastos', () => {
  it('on, receptor = profile → rfcVerificado', () => {
    expect(validateCfdi(invoice, receptorProfile(flags({ validarRFCGastos: true })), expense)).toEqual({
      ...CLEAN,
      rfcVerificado: true,
    });
  });

  it('on, an income CFDI uploaded as expense: receptor ≠ profile, bloquear off → warning', () => {
    const v = validateCfdi(invoice, emisorProfile(flags({ validarRFCGastos: true })), expense);
    expect(v).toMatchObject({
      rfcVerificado: false,
      advertencias: [
        `El RFC del receptor (${RECEPTOR_RFC}) no coincide con el RFC del perfil (${EMISOR_RFC})`,
      ],
      valido: true,
    });
  });

  it('on, receptor ≠ profile, bloquear on → error', () => {
    const v = validateCfdi(
      invoice,
      emisorProfile(flags({ validarRFCGastos: true, bloquearSiRFCNoCoincide: true })),
      expense,
    );
    expect(v).toMatchObject({
      errores: [`El RFC del receptor (${RECEPTOR_RFC}) no coincide con el RFC del perfil (${EMISOR_RFC})`],
      valido: false,
    });
  });

  it('off → nothing checked', () => {
    expect(validateCfdi(invoice, emisorProfile(flags({ validarRFCIngresos: true })), expense)).toEqual(CLEAN);
  });

  it('nómina filed as the employer’s expense checks the emisor', () => {
    const nomina = ok(cfdi40({ tipo: 'N', metodoPago: null }));
    const v = validateCfdi(
      nomina,
      emisorProfile(flags({ validarRFCGastos: true, validarRegimenFiscal: true })),
      expense,
    );
    expect(v).toEqual({ ...CLEAN, rfcVerificado: true, regimenFiscalVerificado: true });
  });
});

describe('validarRegimenFiscal', () => {
  it('on, income: emisor regime in the profile → verified', () => {
    expect(
      validateCfdi(invoice, emisorProfile(flags({ validarRegimenFiscal: true }), ['626', '601']), income),
    ).toEqual({
      ...CLEAN,
      regimenFiscalVerificado: true,
    });
  });

  it('on, expense: RegimenFiscalReceptor in the profile → verified', () => {
    expect(validateCfdi(invoice, receptorProfile(flags({ validarRegimenFiscal: true })), expense)).toEqual({
      ...CLEAN,
      regimenFiscalVerificado: true,
    });
  });

  it('on, mismatch, bloquear off → warning', () => {
    const v = validateCfdi(invoice, emisorProfile(flags({ validarRegimenFiscal: true }), ['626']), income);
    expect(v).toEqual({
      ...CLEAN,
      advertencias: ['El régimen fiscal del emisor (601) no está entre los del perfil (626)'],
    });
  });

  it('on, mismatch, bloquear on → error', () => {
    const f = flags({ validarRegimenFiscal: true, bloquearSiRegimenNoCoincide: true });
    const v = validateCfdi(invoice, emisorProfile(f, ['626', '612']), income);
    expect(v).toEqual({
      ...CLEAN,
      errores: ['El régimen fiscal del emisor (601) no está entre los del perfil (626, 612)'],
      valido: false,
    });
  });

  it('off, mismatch, bloquear on → nothing', () => {
    expect(
      validateCfdi(invoice, emisorProfile(flags({ bloquearSiRegimenNoCoincide: true }), ['626']), income),
    ).toEqual(CLEAN);
  });

  it('CFDI 3.3 expense has no receptor regime: a warning even with bloquear on', () => {
    const v33 = ok(
      cfdi40({ receptor: { regimen: null } })
        .replace('http://www.sat.gob.mx/cfd/4', 'http://www.sat.gob.mx/cfd/3')
        .replace('Version="4.0"', 'Version="3.3"'),
    );
    const f = flags({ validarRegimenFiscal: true, bloquearSiRegimenNoCoincide: true });
    expect(validateCfdi(v33, receptorProfile(f), expense)).toEqual({
      ...CLEAN,
      advertencias: ['CFDI 3.3 no incluye régimen del receptor; no se pudo verificar'],
    });
  });

  it('a profile without regimes cannot be checked: warning, never error', () => {
    const f = flags({ validarRegimenFiscal: true, bloquearSiRegimenNoCoincide: true });
    expect(validateCfdi(invoice, emisorProfile(f, []), income)).toEqual({
      ...CLEAN,
      advertencias: ['el perfil no tiene regímenes fiscales configurados; no se pudo verificar el régimen'],
    });
  });
});

describe('validarUUIDDuplicado', () => {
  it('on and held by another profile of the account → uuidDuplicado and a warning, still valid', () => {
    const v = validateCfdi(invoice, emisorProfile(flags({ validarUUIDDuplicado: true })), {
      side: 'income',
      duplicateUuid: true,
    });
    expect(v).toEqual({
      ...CLEAN,
      uuidDuplicado: true,
      advertencias: [`UUID duplicado: ${invoice.uuid} ya está registrado en otro perfil de la cuenta`],
    });
  });

  it('on and new → nothing', () => {
    expect(validateCfdi(invoice, emisorProfile(flags({ validarUUIDDuplicado: true })), income)).toEqual(
      CLEAN,
    );
  });

  it('off → not reported', () => {
    expect(validateCfdi(invoice, emisorProfile(ALL_OFF), { side: 'income', duplicateUuid: true })).toEqual(
      CLEAN,
    );
  });
});

describe('advertencias carry the parse and classification findings', () => {
  it('parse warnings first, then classification, then validation', () => {
    const self = ok(cfdi40({ total: '1170.00', receptor: { rfc: EMISOR_RFC, regimen: '601' } }));
    const v = validateCfdi(self, emisorProfile(flags({ validarRegimenFiscal: true }), ['626']), income);
    expect(v.advertencias).toEqual([
      'Total inconsistente: Total 1170.00 ≠ SubTotal − Descuento + Trasladados − Retenidos = 1160.00',
      `autofactura: el RFC del perfil (${EMISOR_RFC}) es emisor y receptor`,
      'El régimen fiscal del emisor (601) no está entre los del perfil (626)',
    ]);
    expect(v.valido).toBe(true);
  });

  it('all checks on and passing with the spec defaults (validar* on, bloquear* off)', () => {
    const defaults = flags({
      validarRFCIngresos: true,
      validarRFCGastos: true,
      validarRegimenFiscal: true,
      validarUUIDDuplicado: true,
    });
    expect(validateCfdi(invoice, emisorProfile(defaults), income)).toEqual({
      ...CLEAN,
      rfcVerificado: true,
      regimenFiscalVerificado: true,
    });
  });
});
