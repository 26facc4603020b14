import { z } from 'zod';
import { profileRefFields } from './aliases';
import { Tipo } from './invoice';

export const Pagination = z
  .object({
    total: z.number(),
    page: z.number(),
    limit: z.number(),
    totalPages: z.number(),
    totalExact: z
      .boolean()
      .describe(
        'false only for a listing with `search` matching more than 1,000: `total` is then 1,000 (a lower bound) and `totalPages` follows from it; later pages are still served',
      ),
  })
  .meta({
    id: 'Pagination',
    example: { total: 132, page: 1, limit: 50, totalPages: 3, totalExact: true },
  });

export const Mes = z.number().int().min(1, 'mes must be 1-12').max(12, 'mes must be 1-12');
export const Año = z.number().int().min(1990, 'año must be 1990-2100').max(2100, 'año must be 1990-2100');

/** Filters shared by the invoice and expense listings and their exports (docs/contract.md#routes); the profile by either name. */
export const listFilters = {
  ...profileRefFields,
  mes: Mes.optional(),
  año: Año.optional(),
  regimen_fiscal: z
    .string()
    .regex(/^\d{3}$/, 'regimen_fiscal is a 3-digit code')
    .optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'words matching whole words or word starts of the RFCs, names and concept; an RFC or UUID fragment from its start, or from the start of the UUID last block (docs/contract.md#search)',
    ),
  tipo_comprobante: z
    .enum(['I', 'E', 'P', 'T', 'N'])
    .optional()
    .describe('TipoDeComprobante: E lists the credit notes; manual expenses have none'),
  estatus_sat: z
    .enum(['vigente', 'cancelado', 'desconocido'])
    .optional()
    .describe('SAT status of the CFDI (docs/sat-status.md); manual expenses have none'),
};

/** The expense listing's own filters, beside `listFilters`. */
export const expenseFilters = {
  tipo: Tipo.optional(),
  categoria: z.string().trim().min(1).max(100).optional(),
};

/** A listing's query: its filters and the page. */
export const listQuery = (defaultLimit: number) => ({
  ...listFilters,
  page: z.number().int().min(1).max(1_000_000).default(1),
  limit: z.number().int().min(1).max(100).default(defaultLimit),
});
