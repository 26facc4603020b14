import { parentPort } from 'node:worker_threads';
import { parsePrintable } from '@folio/cfdi';
import { renderReportPdf } from '../reports/pdf';
import { renderCfdiPdf } from './cfdi-pdf';
import type { PdfOutcome, PdfTask } from './pdf-pool';

/**
 * The body of a PDF worker thread (pdf-pool.ts starts and limits them): one document at a time,
 * drawn here so that the server's event loop never waits for a layout, and a document that needs
 * more memory or time than allowed ends this thread, not the server.
 */

async function render(task: PdfTask): Promise<PdfOutcome> {
  if (task.kind === 'report') return { ok: true, pdf: await renderReportPdf(task.report) };
  const parsed = parsePrintable(task.xml);
  if (!parsed.ok) return { ok: false, unprintable: `the stored XML no longer parses: ${parsed.reason}` };
  const { cfdi } = parsed.doc;
  const pdf = await renderCfdiPdf(parsed.doc);
  return {
    ok: true,
    pdf,
    cfdi: { rfc: cfdi.emisor.rfc, serie: cfdi.serie, folio: cfdi.folio, uuid: cfdi.uuid },
  };
}

const port = parentPort;
if (!port) throw new Error('pdf-worker.ts runs as a worker thread (pdf-pool.ts)');
port.on('message', (task: PdfTask) => {
  render(task).then(
    (answer) => port.postMessage({ id: task.id, ...answer }),
    (err: unknown) =>
      port.postMessage({ id: task.id, ok: false, error: String((err as Error)?.stack ?? err) }),
  );
});
