export * from './billing';
export * from './catalogs';
export * from './platform';
export * from './profiles';
export * from './users';
