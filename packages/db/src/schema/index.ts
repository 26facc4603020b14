export * from './catalogs';
export * from './platform';
export * from './users';
