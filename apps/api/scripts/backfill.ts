// pnpm db:backfill — derives what older rows lack from their stored XML (the server also does it at
// start, in the background); against DATABASE_URL, else the PGlite directory of `pnpm start`.
import { resolve } from 'node:path';
import { backfillSearchDictionary, backfillSubstitutions, backfillTaxDetail } from '@folio/api';
import { openDb } from '@folio/db';

// pnpm runs this from apps/api; resolve the data directory against where the command was typed.
const base = process.env.INIT_CWD ?? process.cwd();
const rawDir = process.env.PGLITE_DATA_DIR ?? '.data/pglite';
const handle = await openDb({
  databaseUrl: process.env.DATABASE_URL,
  pgliteDataDir: rawDir === 'memory://' ? rawDir : resolve(base, rawDir),
});
try {
  const started = Date.now();
  const done = await backfillTaxDetail(handle.db);
  console.log(
    `tax detail: ${done.filled} CFDI filled, ${done.unreadable} unreadable, in ${Date.now() - started} ms (${handle.kind})`,
  );
  const substitutes = await backfillSubstitutions(handle.db);
  console.log(`substitutions (04): ${substitutes} substitutes presumed their originals cancelled`);
  const accounts = await backfillSearchDictionary(handle.db);
  console.log(`search dictionary: ${accounts} accounts filled`);
} finally {
  await handle.close();
}
