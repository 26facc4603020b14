import { z } from 'zod';
import { Day, Timestamp } from './formats';

export const SiNoOpcional = z.enum(['Sí', 'No', 'Opcional']);

export const SatProduct = z
  .object({
    id: z.string(),
    descripcion: z.string(),
    incluir_iva_trasladado: z.string(),
    incluir_ieps_trasladado: z.string(),
    complemento_que_debe_incluir: z.string().nullable(),
    fecha_inicio_vigencia: Day,
    fecha_fin_vigencia: Day.nullable(),
    estimulo_franja_fronteriza: z.string(),
    palabras_similares: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'SatProduct',
    example: {
      id: '43231500',
      descripcion: 'Software funcional específico de la empresa',
      incluir_iva_trasladado: 'Opcional',
      incluir_ieps_trasladado: 'Opcional',
      complemento_que_debe_incluir: null,
      fecha_inicio_vigencia: '2019-01-07',
      fecha_fin_vigencia: null,
      estimulo_franja_fronteriza: '0',
      palabras_similares: null,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    },
  });

/** A result of the search by meaning: the record, how close it is, and (PRO) why. */
export const SatAiSearchItem = SatProduct.extend({
  score: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: 'How well the code matches the query, 0–1 (1 = first in every ranking)' }),
  explicacion: z.string().optional().meta({
    description:
      'Why the code matches and how the catalog says to invoice it (IVA, IEPS, complemento, vigencia), in Spanish; only with satHasAIExplanations',
  }),
}).meta({ id: 'SatAiSearchItem' });

export const FiscalRegime = z
  .object({
    clave: z.string(),
    descripcion: z.string(),
    aplica_persona_fisica: z.boolean(),
    aplica_persona_moral: z.boolean(),
  })
  .meta({
    id: 'FiscalRegime',
    example: {
      clave: '601',
      descripcion: 'General de Ley Personas Morales',
      aplica_persona_fisica: false,
      aplica_persona_moral: true,
    },
  });
