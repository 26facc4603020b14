/**
 * Every `code` an error body can carry: the one list programs switch on. The OpenAPI document's
 * ErrorBody.code is this enum (so generated clients and the SDK get it as a union), the error
 * helpers accept only these, and docs/errors.md has an entry for each (a test holds all three).
 */
export const ERROR_CODES = [
  // The status's default, when nothing more specific applies.
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  // Transport and input.
  'route_not_found',
  'unknown_parameter',
  'malformed_json',
  'malformed_multipart',
  'no_files',
  'request_target_invalid',
  'empty_update',
  'idempotency_key_invalid',
  'idempotency_key_reused',
  'database_unavailable',
  // Authentication and plans.
  'session_required',
  'api_key_invalid',
  'api_key_read_only',
  'api_key_limit_reached',
  'cross_site_refused',
  'email_unverified',
  'plan_required',
  'plan_limit_reached',
  'quota_exceeded',
  // Profiles.
  'rfc_invalid',
  'rfc_taken',
  'rfc_locked',
  'regimen_invalid',
  'profile_frozen',
  // CFDI, invoices and expenses.
  'cfdi_rejected',
  'uuid_invalid',
  'cancelled_by_sat',
  'fecha_cancelacion_required',
  'fecha_cancelacion_refused',
  'fecha_cancelacion_early',
  'payment_date_required',
  'payment_date_without_payment',
  'period_mismatch',
  'period_closed',
  'mes_without_año',
  'forma_pago_invalid',
  'pedimento_invalid',
  'too_many_decimals',
  'foreign_supplier_incomplete',
  'tipo_operacion_not_allowed',
  // Exports and reports.
  'export_too_large',
  'format_unsupported',
  'pdf_busy',
  'pdf_timeout',
  'pdf_unprintable',
  'report_busy',
  'report_timeout',
  'report_too_large',
  // e.firma (SAT sync).
  'efirma_certificate_unreadable',
  'efirma_not_fiel',
  'efirma_rfc_mismatch',
  'efirma_expired',
  'efirma_not_yet_valid',
  'efirma_password_wrong',
  'efirma_key_mismatch',
  'efirma_consent_required',
  'efirma_test_certificate',
  'efirma_refused_by_sat',
  'efirma_not_found',
  // SAT sync jobs.
  'efirma_required',
  'efirma_unusable',
  'sync_period_invalid',
  // SAT catalog.
  'favorite_limit_reached',
  // Outgoing webhooks.
  'webhook_url_invalid',
  'webhook_endpoint_limit_reached',
  'webhook_delivery_pending',
  // Billing.
  'already_subscribed',
  'no_paid_subscription',
  'customer_missing',
  'promotion_code_invalid',
  'signature_invalid',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Where each code is explained: the repository's docs/errors.md, served by apps/api beside the docs
 * page. A path on the same server (RFC 8288 resolves it against the request's URL), so the link holds
 * wherever the API is deployed; sent as `Link: <…#code>; rel="help"` with every error answer.
 */
export const ERROR_DOCS_PATH = '/api/docs/errors.md';
export const errorHelpLink = (code: ErrorCode) => `<${ERROR_DOCS_PATH}#${code}>; rel="help"`;

const KNOWN = new Set<string>(ERROR_CODES);
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && KNOWN.has(value);

/** One invalid input field: its dotted path (`regimenes_fiscales.0`, `` for the whole input) and why. */
export interface FieldError {
  path: string;
  message: string;
}
