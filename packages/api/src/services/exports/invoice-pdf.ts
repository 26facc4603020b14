import { getEntitlements } from '@folio/billing';
import { parsePrintable } from '@folio/cfdi';
import type { Context } from '../../context';
import { forbidden } from '../../errors';
import { getInvoiceXml } from '../cfdi/read';
import { renderCfdiPdf } from './cfdi-pdf';
import { attachment, PDF_EXPORT_REQUIRED } from './rules';

/** Serie and folio may hold any character but `|`; in a file name keep letters, digits and `&._-`. */
const safePart = (s: string) => s.replace(/[^\p{L}\p{N}&._-]/gu, '_');

/**
 * GET /api/invoices/{id}/pdf: the representación impresa of a CFDI the caller owns (income or
 * expense; the id the listings give), drawn from the original XML as it was uploaded. Needs
 * `exportPDF`. Named as a person files it: issuer RFC, serie-folio, UUID.
 */
export async function invoicePdf(ctx: Context, userId: string, id: string) {
  const { limits } = await getEntitlements(ctx.db, userId);
  if (!limits.exportPDF) throw forbidden(PDF_EXPORT_REQUIRED, 'plan_required');
  const xml = await getInvoiceXml(ctx, userId, id);
  const parsed = parsePrintable(xml);
  // Every stored original passed this parser when it was imported.
  if (!parsed.ok) throw new Error(`stored CFDI ${id} no longer parses: ${parsed.reason}`);
  const { cfdi } = parsed.doc;
  const serieFolio = [cfdi.serie, cfdi.folio].filter(Boolean).join('-');
  const filename = `${[cfdi.emisor.rfc, serieFolio && safePart(serieFolio), cfdi.uuid].filter(Boolean).join('-')}.pdf`;
  const body = await renderCfdiPdf(parsed.doc);
  return {
    filename,
    body,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': attachment(filename),
      'Content-Length': String(body.byteLength),
    },
  };
}
