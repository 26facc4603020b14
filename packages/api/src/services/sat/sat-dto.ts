import type { FiscalRegimeRow, SatProductRecord } from '@folio/db/queries/catalogs';
import type { z } from 'zod';
import type { FiscalRegime, SatProduct } from '../../schemas/sat';

export function toSatProduct(r: SatProductRecord): z.infer<typeof SatProduct> {
  return {
    id: r.id,
    descripcion: r.descripcion,
    incluir_iva_trasladado: r.incluirIvaTrasladado,
    incluir_ieps_trasladado: r.incluirIepsTrasladado,
    complemento_que_debe_incluir: r.complementoQueDebeIncluir,
    fecha_inicio_vigencia: r.fechaInicioVigencia,
    fecha_fin_vigencia: r.fechaFinVigencia,
    estimulo_franja_fronteriza: r.estimuloFranjaFronteriza,
    palabras_similares: r.palabrasSimilares,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toFiscalRegime(r: FiscalRegimeRow): z.infer<typeof FiscalRegime> {
  return {
    clave: r.clave,
    descripcion: r.descripcion,
    aplica_persona_fisica: r.aplicaPersonaFisica,
    aplica_persona_moral: r.aplicaPersonaMoral,
  };
}
