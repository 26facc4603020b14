import { CHECKOUT_PLANS, PLAN_LIMITS } from '@folio/billing';
import type { ExportFormat } from '../../schemas/export';

/** Rows one export may hold (plan-features §2); more matches must be narrowed by the filters. */
export const MAX_EXPORT_ROWS = 100_000;

/** "Excel export requires the BASIC or PRO plan": the plans that include the feature, named. */
const planRequired = (what: string, feature: 'exportExcel' | 'exportPDF') =>
  `${what} export requires the ${CHECKOUT_PLANS.filter((p) => PLAN_LIMITS[p][feature]).join(' or ')} plan`;
export const EXCEL_EXPORT_REQUIRED = planRequired('Excel', 'exportExcel');
export const PDF_EXPORT_REQUIRED = planRequired('PDF', 'exportPDF');

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/**
 * `facturas-XAXX010101000-2025-03.xlsx`: what, whose and when, as a person files it. The header
 * carries an ASCII fallback and the exact name as RFC 6266 `filename*` (an RFC may hold Ñ and &).
 */
export function attachmentOf(
  what: 'facturas' | 'gastos',
  format: ExportFormat,
  period: { rfc?: string; año?: number; mes?: number },
): { filename: string; disposition: string } {
  const parts = [what, period.rfc ?? 'todos'];
  if (period.año !== undefined) parts.push(String(period.año));
  if (period.mes !== undefined) parts.push(String(period.mes).padStart(2, '0'));
  const filename = `${parts.join('-')}.${format}`;
  return { filename, disposition: attachment(filename) };
}

/**
 * `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the quoted name in ASCII for old clients
 * (Ñ → N, nothing that could end the quotes), the exact name percent-encoded (RFC 5987) for the rest.
 */
export function attachment(filename: string): string {
  const ascii = filename
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
