/**
 * Why a file is refused, for programs (the Spanish `motivo` says it for people): an import report's
 * `files[].code`. docs/errors.md#import-file-codes explains each.
 */
export const REJECTION_CODES = [
  'xml_malformed',
  'encoding_unsupported',
  'file_too_large',
  'version_unsupported',
  'unstamped',
  'cfdi_invalid',
  'rfc_not_party',
  'file_type_unsupported',
  'zip_entry_unreadable',
  'quota_exceeded',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

/** Thrown inside the parser for any reason to refuse a file; parseCfdi turns it into `{ ok: false, reason, code }`. */
export class CfdiRejection extends Error {
  constructor(
    message: string,
    /** A missing or invalid node, attribute or value unless said otherwise. */
    readonly code: RejectionCode = 'cfdi_invalid',
  ) {
    super(message);
  }
}
