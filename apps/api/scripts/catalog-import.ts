// pnpm catalog:import FILE — loads a c_ClaveProdServ CSV (plain or .gz) into the configured database (idempotent),
// queues one mail per user whose favorite codes changed (the running server delivers it), and builds the
// search by meaning's model into SAT_MEANING_MODEL_FILE, which the next start reads instead of building it.
import { resolve } from 'node:path';
import { DEFAULT_MEANING_MODEL_FILE, importSatCatalog, mailSatAlerts, prepareMeaningModel } from '@folio/api';
import { openDb } from '@folio/db';

const file = process.argv[2];
if (!file) {
  console.error('usage: pnpm catalog:import FILE.csv (or FILE.csv.gz)');
  process.exit(2);
}
// pnpm runs this from apps/api; resolve paths against where the user typed the command.
const base = process.env.INIT_CWD ?? process.cwd();
const rawDir = process.env.PGLITE_DATA_DIR ?? '.data/pglite';
const dataDir = rawDir === 'memory://' ? rawDir : resolve(base, rawDir);
const handle = await openDb({ databaseUrl: process.env.DATABASE_URL, pgliteDataDir: dataDir });
const started = Date.now();
try {
  const rows = await importSatCatalog(handle.db, resolve(base, file), (n) =>
    process.stderr.write(`\rimported ${n} rows (${((Date.now() - started) / 1000).toFixed(1)} s)`),
  );
  process.stderr.write('\n');
  const { mails } = await mailSatAlerts({ db: handle.db, kickEmail: () => {} });
  const modelFile = resolve(base, process.env.SAT_MEANING_MODEL_FILE || DEFAULT_MEANING_MODEL_FILE);
  const modelStart = Date.now();
  const model = await prepareMeaningModel(handle.db, modelFile);
  console.log(
    `search by meaning: model ${model === 'built' ? 'built into' : 'already current in'} ${modelFile} (${Date.now() - modelStart} ms)`,
  );
  console.log(
    `catalog: ${rows} rows upserted into ${handle.kind} in ${Date.now() - started} ms; ${mails} alert mail(s) queued`,
  );
} finally {
  await handle.close();
}
