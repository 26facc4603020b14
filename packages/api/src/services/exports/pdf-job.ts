import { parsePrintable } from '@folio/cfdi';
import { renderReportPdf } from '../reports/pdf';
import type { PdfJob, PdfResult, WorkOutcome } from '../workers/types';
import { renderCfdiPdf } from './cfdi-pdf';

/** A PDF job, in a worker thread (pdf-pool.ts): the bytes, or why the document cannot be printed. */
export async function drawPdf(job: PdfJob): Promise<WorkOutcome<PdfResult>> {
  if (job.kind === 'report-pdf') return { ok: true, value: { pdf: await renderReportPdf(job.report) } };
  const parsed = parsePrintable(job.xml);
  if (!parsed.ok) return { ok: false, refused: `the stored XML no longer parses: ${parsed.reason}` };
  const { cfdi } = parsed.doc;
  const pdf = await renderCfdiPdf(parsed.doc);
  return {
    ok: true,
    value: { pdf, cfdi: { rfc: cfdi.emisor.rfc, serie: cfdi.serie, folio: cfdi.folio, uuid: cfdi.uuid } },
  };
}
