import { BUNDLED_SAT_CATALOG } from '@folio/db';

/** The full SAT catalog: SAT_CATALOG_CSV when set (CI points it at its copy), else the one shipped in packages/db/data. */
export const fullCatalogCsv = (): string => process.env.SAT_CATALOG_CSV || BUNDLED_SAT_CATALOG;
