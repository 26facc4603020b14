export * from './billing';
export * from './catalogs';
export * from './cfdi';
export * from './platform';
export * from './profiles';
export * from './users';
