// tax-rules §2/§3: a credit note's parts per invoice, in the order of its CfdiRelacionado list, each
// up to the invoice's balance at the note's date.
import { describe, expect, it } from 'vitest';
import { allocateCredits, allocationKey } from '../src';

const ppd = (uuid: string, total: number) => ({ uuid, total, moneda: 'MXN', ppd: true });
const note = (uuid: string, fecha: string, total: number, related: string[]) => ({
  uuid,
  fecha,
  total,
  moneda: 'MXN',
  related,
});

describe('allocateCredits', () => {
  it('in list order, each up to its balance; the rest lowers none', () => {
    const parts = allocateCredits(
      [ppd('A', 1000), ppd('B', 1000)],
      [],
      [note('N', '2025-03-01', 1500, ['B', 'A'])],
    );
    // B first: 1,000; A: 1,500 − 1,000 = 500.
    expect(parts.get(allocationKey('N', 'B'))).toBe(1000);
    expect(parts.get(allocationKey('N', 'A'))).toBe(500);
  });

  it('the balance at the note’s date: payments before it count, later ones do not', () => {
    const parts = allocateCredits(
      [ppd('A', 1000)],
      [
        { uuid: 'A', fecha: '2025-02-01', amount: 700 },
        { uuid: 'A', fecha: '2025-04-01', amount: 100 },
      ],
      [note('N', '2025-03-01', 500, ['A'])],
    );
    // 1,000 − 700 = 300 owed in March: the note's other 200 is money back.
    expect(parts.get(allocationKey('N', 'A'))).toBe(300);
  });

  it('a PUE invoice, an unknown one or one in another currency takes nothing', () => {
    const parts = allocateCredits(
      [
        { ...ppd('P', 1000), ppd: false },
        { ...ppd('U', 1000), moneda: 'USD' },
      ],
      [],
      [note('N', '2025-03-01', 500, ['P', 'X', 'U'])],
    );
    expect(parts.size).toBe(0);
  });

  it('an earlier note lowers the balance a later one finds', () => {
    const parts = allocateCredits(
      [ppd('A', 1000)],
      [],
      [note('N2', '2025-03-02', 500, ['A']), note('N1', '2025-03-01', 800, ['A'])],
    );
    expect(parts.get(allocationKey('N1', 'A'))).toBe(800);
    // 1,000 − 800 = 200 left for the second.
    expect(parts.get(allocationKey('N2', 'A'))).toBe(200);
  });
});
