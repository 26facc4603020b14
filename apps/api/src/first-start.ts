// A first start's database work, in a process of its own (main.ts runs it when it creates the
// embedded database, or when it imported a catalog into PostgreSQL): initdb, migrations, the SAT
// catalog import and the search by meaning's model file. The server then opens a ready directory, as on any restart, without the memory this work
// left behind in PGlite's WebAssembly heap and V8's (docs/design.md#start-up).
import { prepareMeaningModel } from '@folio/api';
import { fromBase, openServerDatabase } from './database';
import { loadEnv } from './env';
import { createLogger } from './logger';
import { routeWarnings } from './warnings';

const env = loadEnv();
const log = createLogger(env.LOG_LEVEL);
routeWarnings(log);
const { db, catalog } = await openServerDatabase(env, log);
try {
  // As `pnpm catalog:import` does: the first meaning search then reads the model instead of building it.
  if (catalog.kind !== 'starter') {
    const started = Date.now();
    const from = await prepareMeaningModel(db.db, fromBase(env.SAT_MEANING_MODEL_FILE));
    log.info({ from, ms: Date.now() - started }, 'SAT meaning model ready');
  }
} finally {
  await db.close();
}
