// A PDF is laid out in a worker thread (services/exports/pdf-pool.ts), never on the server's event
// loop: while a CFDI of thousands of concepts (seconds of layout) is drawn, the loop keeps turning.
// Counted in turns of the loop, not in milliseconds, so the machine's speed does not change the
// verdict: drawn on the loop itself, the document would let it turn not once.
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../src/services/exports/pdf-pool';

const CONCEPTS = 2_000;

describe('PDF layout and the event loop', () => {
  it('a CFDI of 2,000 concepts is drawn in a worker thread: the event loop turns all along', async () => {
    const uuid = newUuid();
    const xml = invoiceXml({
      uuid,
      emisor: { rfc: 'AAA010101AAA', nombre: 'Emisora', regimen: '601' },
      receptor: { rfc: 'BBB010101BBB', nombre: 'Receptora', regimen: '601' },
      fecha: '2025-03-10T10:00:00',
      conceptos: Array.from({ length: CONCEPTS }, (_, i) => ({
        descripcion: `Concepto ${i} con una descripción de una línea`,
        importe: 100 + i,
      })),
    });
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const { pdf, cfdi } = await renderPdf({ kind: 'cfdi-pdf', xml });
    counting = false;
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(cfdi?.uuid).toBe(uuid);
    // The old in-thread layout handed the loop back once per 100 rows: 20 turns. In a worker the
    // loop turns while the thread starts, parses and draws: far more than that.
    expect(turns).toBeGreaterThanOrEqual(CONCEPTS);
  });
});
