import type { Db } from '@folio/db';
import { listSatProductsForModel, satCatalogVersion } from '@folio/db/queries/catalogs';
import { buildMeaningModel, type MeaningModel } from './model';
import { readMeaningModel, writeMeaningModel } from './store';

/** The model of each database's catalog, kept in memory with the catalog version it was built from. */
const models = new WeakMap<Db, { version: string; model: Promise<MeaningModel> }>();
/** Where the model of a database's catalog is kept between runs when the server does not say. */
export const DEFAULT_MEANING_MODEL_FILE = '.data/sat-meaning-model.bin';
/** The file each database's model is read from by its first search (set by the server's start). */
const files = new WeakMap<Db, string>();

/**
 * Where `db`'s model is kept between runs. The server's start only says where: the first search by
 * meaning reads the model from there (or builds and writes it), so a server that never searches by
 * meaning holds none of it (docs/benchmarks.md#memory).
 */
export function keepMeaningModelIn(db: Db, file: string): void {
  files.set(db, file);
}

/**
 * Makes `db`'s model ready and keeps it in `file` for the next run: read from the file when it holds
 * the current catalog's model, else built and written there. So a catalog import (`pnpm
 * catalog:import`, or the first start loading the shipped catalog) pays the seconds of the build and
 * later starts only read. Tells which it was. A model built by a search after the catalog changed
 * under a running server stays in memory only.
 */
export async function prepareMeaningModel(db: Db, file: string): Promise<'file' | 'built'> {
  const version = await satCatalogVersion(db);
  if (models.get(db)?.version !== version) {
    const stored = readMeaningModel(file, version);
    if (stored) {
      models.set(db, { version, model: Promise.resolve(stored) });
      return 'file';
    }
  }
  writeMeaningModel(file, version, await meaningModelFor(db, Promise.resolve(version)));
  return 'built';
}

/**
 * The meaning model of the catalog at `version` (the current one unless given): built once per
 * process and catalog version (seconds for the full catalog), then reused. Searches arriving while it builds wait for the same build.
 */
export async function meaningModelFor(
  db: Db,
  version: Promise<string> = satCatalogVersion(db),
): Promise<MeaningModel> {
  const current = await version;
  const cached = models.get(db);
  if (cached?.version === current) return cached.model;
  const model = readOrBuild(db, current);
  models.set(db, { version: current, model });
  model.catch(() => {
    if (models.get(db)?.model === model) models.delete(db);
  });
  return model;
}

/**
 * Runs `use` on the model as the catalog is now, without waiting for the version check when a
 * model is already built: the check runs in the database while `use` ranks in memory, and only
 * when the catalog changed meanwhile is `use` run again on the new model.
 */
export async function withMeaningModel<T>(db: Db, use: (model: MeaningModel) => Promise<T>): Promise<T> {
  const version = satCatalogVersion(db);
  version.catch(() => {}); // awaited below; this only keeps an early failure of `use` from orphaning it
  const last = models.get(db)?.model;
  const first = last ? await use(await last) : undefined;
  const model = await meaningModelFor(db, version);
  return last && model === (await last) ? (first as T) : use(model);
}

/** The model of the catalog at `version`: from the database's model file when it holds it, else built (and written there). */
async function readOrBuild(db: Db, version: string): Promise<MeaningModel> {
  const file = files.get(db);
  const stored = file === undefined ? undefined : readMeaningModel(file, version);
  if (stored) return stored;
  const built = buildMeaningModel(await listSatProductsForModel(db));
  if (file !== undefined) writeMeaningModel(file, version, built);
  return built;
}
