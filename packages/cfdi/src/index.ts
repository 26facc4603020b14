export * from './applications';
export * from './classify';
export * from './money';
export * from './parse-cfdi';
export * from './payment-status';
export * from './rfc';
export * from './types';
export * from './validate';
export { MAX_CFDI_BYTES, XML_TOO_LARGE } from './xml-input';
