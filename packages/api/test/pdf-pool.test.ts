// PDFs are drawn in worker threads with limits per process (services/exports/pdf-pool.ts, issue 25):
// a full pool answers 503 with Retry-After at once, a document out of time 503, a document that
// needs more memory than a worker has 422 (it cannot be printed), and the pool goes on serving.
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors';
import { renderPdf } from '../src/services/exports/pdf-pool';

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
