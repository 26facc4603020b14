export { BUNDLED_SAT_CATALOG } from './bundled-catalog';
export {
  type Db,
  type DbHandle,
  type DbKind,
  type Executor,
  migrationsFolder,
  type OpenDbOptions,
  openDb,
  rowsOf,
  type Tx,
} from './client';
export { isDatabaseUnavailable, isUniqueViolation } from './errors';
export { DataDirLockedError } from './lock';
export { prepared } from './prepared';
export { seedStarterCatalog } from './seed/starter-catalog';
