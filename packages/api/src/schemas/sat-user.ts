import { z } from 'zod';
import { Timestamp, Uuid } from './formats';
import { Pagination } from './pagination';
import { SatProduct } from './sat';

/** `?limit=&offset=` of the SAT history and alerts listings. */
export const OffsetPage = z.object({
  limit: z.number().int().min(1).max(100).default(20),
  offset: z.number().int().min(0).max(100_000).default(0),
});

/** The listings' `pagination`, with the `offset` they are paged by. */
export const OffsetPagination = Pagination.extend({ offset: z.number() }).meta({
  id: 'OffsetPagination',
  example: { total: 42, page: 2, limit: 20, totalPages: 3, totalExact: true, offset: 20 },
});

export const SatHistoryEntry = z
  .object({
    id: Uuid,
    tipo: z.enum(['basic', 'ai']),
    query: z.string(),
    filtros: z.record(z.string(), z.unknown()),
    total: z.number(),
    created_at: Timestamp,
  })
  .meta({
    id: 'SatHistoryEntry',
    example: {
      id: '5f0c6a7e-2b1d-4c3e-9f1a-0b6c2d7e8f90',
      tipo: 'basic',
      query: 'computadora',
      filtros: { incluir_iva_trasladado: 'Sí' },
      total: 12,
      created_at: '2025-03-01T18:00:00.000Z',
    },
  });

export const SatFavorite = SatProduct.extend({
  clave: z.string(),
  nota: z.string().nullable(),
  added_at: Timestamp,
  removed_from_catalog_at: Timestamp.nullable().meta({
    description:
      'When a catalog import no longer held the code (an `eliminada` alert says so too): the record is its last one, and searches no longer return it; null while the code is in the catalog',
  }),
}).meta({
  id: 'SatFavorite',
  example: {
    ...(SatProduct.meta()?.example as object),
    clave: '43231500',
    nota: 'Licencias que revendo',
    added_at: '2025-03-01T18:00:00.000Z',
    removed_from_catalog_at: null,
  },
});

export const SatAlert = z
  .object({
    id: Uuid,
    clave: z.string(),
    // The stored values (db SAT_ALERT_CAMBIOS); toSatAlert does not compile if the database adds one.
    cambio: z.enum(['fin_vigencia', 'iva', 'ieps', 'complemento', 'descripcion', 'eliminada']),
    antes: z.string().nullable(),
    despues: z.string().nullable(),
    detected_at: Timestamp,
    read_at: Timestamp.nullable(),
  })
  .meta({
    id: 'SatAlert',
    example: {
      id: '0b6c2d7e-8f90-4c3e-9f1a-5f0c6a7e2b1d',
      clave: '50181900',
      cambio: 'fin_vigencia',
      antes: null,
      despues: '2026-12-31',
      detected_at: '2026-01-05T12:00:00.000Z',
      read_at: null,
    },
  });
