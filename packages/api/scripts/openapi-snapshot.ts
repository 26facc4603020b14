/**
 * The committed OpenAPI snapshot (`packages/api/openapi.snap.json`): the document `/api/openapi.json`
 * serves, written so every change to the REST surface shows up in review. `pnpm openapi:update`
 * rewrites it (and the SDK's generated types); test/openapi.test.ts fails while it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi';

export const SNAPSHOT_PATH = fileURLToPath(new URL('../openapi.snap.json', import.meta.url));

/** `info.version` is the server's package version at run time; the snapshot pins it. */
export const SNAPSHOT_VERSION = '0.0.0';

export function snapshotDocument() {
  return buildOpenApiDocument({ version: SNAPSHOT_VERSION });
}

export const snapshotText = () => `${JSON.stringify(snapshotDocument(), null, 2)}\n`;

export const committedSnapshot = (): string | null => {
  try {
    return readFileSync(SNAPSHOT_PATH, 'utf8');
  } catch {
    return null;
  }
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const next = snapshotText();
  const changed = committedSnapshot() !== next;
  if (changed) writeFileSync(SNAPSHOT_PATH, next);
  console.log(`${changed ? 'updated' : 'unchanged'}: ${SNAPSHOT_PATH} (review the diff before committing)`);
}
