export * from './rfc';
