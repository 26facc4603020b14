import { createRequire } from 'node:module';

/**
 * The full c_ClaveProdServ shipped with the project (gzipped; provenance in data/SOURCES.md): what a
 * server loads on its first start. Resolved through the package so the bundled server finds it too.
 */
export const BUNDLED_SAT_CATALOG = createRequire(import.meta.url).resolve(
  '@folio/db/data/c_claveprodserv.csv.gz',
);
