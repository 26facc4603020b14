// PDFs are drawn in worker threads with limits per process (services/exports/pdf-pool.ts, issue 25):
// a full pool answers 503 with Retry-After at once, a document out of time 503, a document that
// needs more memory than a worker has 422 (it cannot be printed), and the pool goes on serving.
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { PDF_LIMITS, renderPdf } from '../src/services/exports/pdf-pool';
import { type PoolWording, runInWorker } from '../src/services/workers/pool';

const xmlOf = (concepts: number) =>
  invoiceXml({
    uuid: newUuid(),
    emisor: { rfc: 'AAA010101AAA', nombre: 'Emisora', regimen: '601' },
    receptor: { rfc: 'BBB010101BBB', nombre: 'Receptora', regimen: '601' },
    fecha: '2025-03-10T10:00:00',
    conceptos: Array.from({ length: concepts }, (_, i) => ({
      descripcion: `Concepto ${i} con una descripción de una línea`,
      importe: 100 + i,
    })),
  });

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('PDF worker pool limits', () => {
  it('concurrency 1 and no queue: a second document asked for while one is drawn → 503 pdf_busy with Retry-After', async () => {
    const limits = { concurrency: 1, queue: 0 };
    const first = renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(1) }, limits);
    const second = await refusal(renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(1) }, limits));
    expect([second.code, second.reason, second.retryAfter]).toEqual(['SERVICE_UNAVAILABLE', 'pdf_busy', 5]);
    expect((await first).pdf.byteLength).toBeGreaterThan(1000);
    // The place is free again.
    expect((await renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(1) }, limits)).cfdi?.rfc).toBe('AAA010101AAA');
  });

  it('a queued document waits its turn and is drawn', async () => {
    const limits = { concurrency: 1, queue: 2 };
    const drawn = await Promise.all(
      [1, 2, 3].map((n) => renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(n) }, limits)),
    );
    expect(drawn.map((d) => d.pdf.byteLength > 1000)).toEqual([true, true, true]);
  });

  it('a document out of time → 503 pdf_timeout, Retry-After the time limit in seconds', async () => {
    const err = await refusal(renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(2_000) }, { timeoutMs: 1 }));
    expect([err.code, err.reason, err.retryAfter]).toEqual(['SERVICE_UNAVAILABLE', 'pdf_timeout', 1]);
  });

  it('a document that needs more than the worker’s heap → 422 pdf_unprintable; the next one is drawn', async () => {
    const limits = { memoryMb: 24 };
    const err = await refusal(renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(2_000) }, limits));
    expect([err.code, err.reason]).toEqual(['UNPROCESSABLE_CONTENT', 'pdf_unprintable']);
    expect(err.message).toBe('This document cannot be printed: drawing it needs more than 24 MB');
    expect((await renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(1) }, limits)).pdf.byteLength).toBeGreaterThan(
      1000,
    );
  });

  it('an XML that does not parse → 422 pdf_unprintable saying why', async () => {
    const err = await refusal(renderPdf({ kind: 'cfdi-pdf', xml: '<cfdi:Comprobante' }));
    expect([err.code, err.reason]).toEqual(['UNPROCESSABLE_CONTENT', 'pdf_unprintable']);
    expect(err.message).toMatch(/^This document cannot be printed: the stored XML no longer parses: /);
  });
});

describe('kinds of work with the same worker shape share its threads (workers/pool.ts)', () => {
  // A second kind of work, as the reports are: its own wording and bounds, the PDFs' shape.
  const OTHER: PoolWording = {
    busy: { message: 'Too many of the other kind', reason: 'report_busy' },
    noWorker: (s) => `No worker within ${s} s`,
    timeout: { message: (s) => `Over ${s} s`, reason: 'report_timeout' },
    refused: { message: (why) => why, overMemory: (mb) => `over ${mb} MB`, reason: 'report_too_large' },
  };

  it('one thread: the other kind waits for the running PDF instead of starting a thread of its own; each kind counts only its own waiting jobs', async () => {
    // A shape no other test uses, so this pool starts empty.
    const shape = { concurrency: 1, memoryMb: 200 };
    const pdfs = { ...shape, queue: 1 };
    const others = { ...PDF_LIMITS, ...shape, queue: 1 };
    const done: string[] = [];
    const slow = renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(600) }, pdfs).then(() => done.push('slow PDF'));
    const other = runInWorker({ kind: 'cfdi-pdf', xml: xmlOf(1) }, OTHER, others).then(() =>
      done.push('other kind'),
    );
    // The pool holds one waiting job, but not a PDF: the PDFs' queue of 1 still has room.
    const second = renderPdf({ kind: 'cfdi-pdf', xml: xmlOf(1) }, pdfs).then(() => done.push('second PDF'));
    // The other kind's queue of 1 is full: its own reason, at once.
    const refused = await refusal(runInWorker({ kind: 'cfdi-pdf', xml: xmlOf(1) }, OTHER, others));
    expect([refused.code, refused.reason]).toEqual(['SERVICE_UNAVAILABLE', 'report_busy']);
    await Promise.all([slow, other, second]);
    // In a thread of its own, the one-concept document would have been done long before the slow one.
    expect(done).toEqual(['slow PDF', 'other kind', 'second PDF']);
  });
});
