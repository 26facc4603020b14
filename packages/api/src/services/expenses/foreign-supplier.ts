import { badRequest } from '../../errors';

// A manual expense's supplier for the DIOT (tax-rules §6): tipo de tercero 05 is a foreign one,
// which needs its tax id and country (one DIOT row each); 04 (or nothing) is national.

export interface ForeignSupplierInput {
  tipo_tercero?: '04' | '05';
  id_fiscal?: string;
  pais?: string;
}

/** The stored fields, or undefined when the body says nothing of them (a PATCH keeps them). */
export function foreignSupplierOf(input: ForeignSupplierInput) {
  if (input.tipo_tercero === undefined && input.id_fiscal === undefined && input.pais === undefined) {
    return undefined;
  }
  const foreign = input.tipo_tercero === '05';
  if (foreign && (!input.id_fiscal || !input.pais)) {
    throw badRequest(
      'tipo_tercero 05 (foreign supplier) needs id_fiscal and pais',
      'foreign_supplier_incomplete',
    );
  }
  if (!foreign && (input.id_fiscal || input.pais)) {
    throw badRequest(
      'id_fiscal and pais are for a foreign supplier: send tipo_tercero 05',
      'foreign_supplier_incomplete',
    );
  }
  return {
    tipoTercero: input.tipo_tercero ?? null,
    idFiscal: foreign ? (input.id_fiscal ?? null) : null,
    pais: foreign ? (input.pais ?? null) : null,
  };
}
