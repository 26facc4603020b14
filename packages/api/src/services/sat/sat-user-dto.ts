import type { SatAlertRow } from '@folio/db/queries/sat-alerts';
import type { listSatFavorites } from '@folio/db/queries/sat-favorites';
import type { SatHistoryRow } from '@folio/db/queries/sat-history';
import type { z } from 'zod';
import type { SatAlert, SatFavorite, SatHistoryEntry } from '../../schemas/sat-user';
import { toSatProduct } from './sat-dto';

export const toSatHistoryEntry = (r: SatHistoryRow): z.infer<typeof SatHistoryEntry> => ({
  id: r.id,
  tipo: r.tipo,
  query: r.query,
  filtros: r.filtros,
  total: r.total,
  created_at: r.createdAt.toISOString(),
});

type FavoriteRow = Awaited<ReturnType<typeof listSatFavorites>>[number];
export const toSatFavorite = (r: FavoriteRow): z.infer<typeof SatFavorite> => ({
  clave: r.id,
  ...toSatProduct(r),
  nota: r.nota,
  added_at: r.addedAt.toISOString(),
  removed_from_catalog_at: r.removedAt?.toISOString() ?? null,
});

export const toSatAlert = (r: SatAlertRow): z.infer<typeof SatAlert> => ({
  id: r.id,
  clave: r.clave,
  cambio: r.cambio,
  antes: r.antes,
  despues: r.despues,
  detected_at: r.detectedAt.toISOString(),
  read_at: r.readAt?.toISOString() ?? null,
});
