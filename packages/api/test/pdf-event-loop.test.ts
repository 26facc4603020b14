// A PDF is laid out on the server's only thread: a CFDI of thousands of concepts (a 5 MB XML holds
// some 12,000, seconds of layout) must hand the event loop back as its tables grow, or every other
// request waits for it. Counted in turns of the loop, not in milliseconds, so the machine's speed
// does not change the verdict.
import { parsePrintable } from '@folio/cfdi';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { describe, expect, it } from 'vitest';
import { renderCfdiPdf } from '../src/services/exports/cfdi-pdf';

const CONCEPTS = 2_000;

describe('PDF layout and the event loop', () => {
  it('a CFDI of 2,000 concepts lets the event loop turn at least every 100 rows while it is drawn', async () => {
    const xml = invoiceXml({
      uuid: newUuid(),
      emisor: { rfc: 'AAA010101AAA', nombre: 'Emisora', regimen: '601' },
      receptor: { rfc: 'BBB010101BBB', nombre: 'Receptora', regimen: '601' },
      fecha: '2025-03-10T10:00:00',
      conceptos: Array.from({ length: CONCEPTS }, (_, i) => ({
        descripcion: `Concepto ${i} con una descripción de una línea`,
        importe: 100 + i,
      })),
    });
    const printable = parsePrintable(new TextEncoder().encode(xml));
    if (!printable.ok) throw new Error(printable.reason);
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const pdf = await renderCfdiPdf(printable.doc);
    counting = false;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(turns).toBeGreaterThanOrEqual(CONCEPTS / 100);
  });
});
