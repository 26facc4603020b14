import type { Db } from '@folio/db';
import { listSatProductsForModel, satCatalogVersion } from '@folio/db/queries/catalogs';
import { buildMeaningModel, type MeaningModel } from './model';

/** The model of each database's catalog, kept in memory with the catalog version it was built from. */
const models = new WeakMap<Db, { version: string; model: Promise<MeaningModel> }>();

/**
 * The meaning model of the catalog as it is now: built once per process and catalog version (a few
 * seconds for the full catalog), then reused, so a search only pays for the version check. Searches
 * arriving while it builds wait for the same build.
 */
export async function meaningModelFor(db: Db): Promise<MeaningModel> {
  const version = await satCatalogVersion(db);
  const cached = models.get(db);
  if (cached?.version === version) return cached.model;
  const model = listSatProductsForModel(db).then((rows) => buildMeaningModel(rows));
  models.set(db, { version, model });
  model.catch(() => {
    if (models.get(db)?.model === model) models.delete(db);
  });
  return model;
}
