/** Thrown inside the parser for any reason to refuse a file; parseCfdi turns it into `{ ok: false, reason }`. */
export class CfdiRejection extends Error {}
