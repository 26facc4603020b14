/**
 * The committed OpenAPI snapshot (`packages/api/openapi.snap.json`): the document `/api/openapi.json`
 * serves, written so every change to the REST surface shows up in review. `pnpm openapi:update`
 * rewrites it (and the SDK's generated types); test/openapi.test.ts fails while it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi';

export const SNAPSHOT_PATH = fileURLToPath(new URL('../openapi.snap.json', import.meta.url));

/** `info.version` and the server URL come from the running server; the snapshot pins them. */
export const SNAPSHOT_VERSION = '0.0.0';
export const SNAPSHOT_SERVER_URL = 'http://localhost:3000/api';

export function snapshotDocument() {
  return buildOpenApiDocument({ version: SNAPSHOT_VERSION, serverUrl: SNAPSHOT_SERVER_URL });
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
