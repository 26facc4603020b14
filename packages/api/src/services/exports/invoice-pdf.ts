import { getEntitlements } from '@folio/billing';
import type { Context } from '../../context';
import { planRequired } from '../../errors';
import { getInvoiceXml } from '../cfdi/read-invoices';
import { renderPdf } from './pdf-pool';
import { attachment, PDF_EXPORT_REQUIRED } from './rules';

/** Serie and folio may hold any character but `|`; in a file name keep letters, digits and `&._-`. */
const safePart = (s: string) => s.replace(/[^\p{L}\p{N}&._-]/gu, '_');

/**
 * GET /api/invoices/{id}/pdf: the representación impresa of a CFDI the caller owns (income or
 * expense; the id the listings give), drawn from the original XML as it was uploaded. Needs
 * `exportPDF`. Named as a person files it: issuer RFC, serie-folio, UUID. Parsed and drawn in a
 * worker thread (pdf-pool.ts): 503 when they are all busy or the document runs out of time, 422 when
 * it cannot be printed.
 */
export async function invoicePdf(ctx: Context, userId: string, id: string) {
  const { limits } = await getEntitlements(ctx.db, userId);
  if (!limits.exportPDF) throw planRequired(PDF_EXPORT_REQUIRED);
  const xml = await getInvoiceXml(ctx, userId, id);
  const { pdf: body, cfdi } = await renderPdf({ kind: 'cfdi-pdf', xml }, ctx.config.pdf);
  if (!cfdi) throw new Error('the PDF worker did not say which CFDI it drew');
  const serieFolio = [cfdi.serie, cfdi.folio].filter(Boolean).join('-');
  const filename = `${[cfdi.rfc, serieFolio && safePart(serieFolio), cfdi.uuid].filter(Boolean).join('-')}.pdf`;
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
