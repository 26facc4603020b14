import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The full SAT catalog CSV of this environment (never part of the project), if it is here. */
export function fullCatalogCsv(): string | undefined {
  const candidates = [
    process.env.SAT_CATALOG_CSV,
    fileURLToPath(new URL('../../../../shared/data/sat/c_claveprodserv.csv', import.meta.url)),
  ];
  return candidates.find((p): p is string => !!p && existsSync(p));
}
