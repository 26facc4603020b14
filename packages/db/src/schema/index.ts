export * from './billing';
export * from './catalogs';
export * from './cfdi';
export * from './expenses';
export * from './platform';
export * from './profiles';
export * from './sat-user';
export * from './users';
