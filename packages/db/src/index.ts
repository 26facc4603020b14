export { ensureSatCatalog, importSatCatalog, type CatalogSource } from './catalog';
export { type Db, type DbHandle, type DbKind, migrationsFolder, type OpenDbOptions, openDb, rowsOf, type Tx } from './client';
export { DataDirLockedError } from './lock';
export * as schema from './schema';
