import { describe, expect, it } from 'vitest';
import { DEFAULT_MONTHLY_PRICES, listPlans, PLAN_LIMITS, priceFor } from './plans';

describe('plans and prices', () => {
  it('prices FREE 0, BASIC 299, PRO 599, ENTERPRISE 1999 a month by default', () => {
    expect(listPlans('monthly').map((p) => [p.id, p.price, p.originalPrice])).toEqual([
      ['FREE', 0, null],
      ['BASIC', 299, null],
      ['PRO', 599, null],
      ['ENTERPRISE', 1999, null],
    ]);
  });

  it('charges ten months for a year and shows twelve as the original price', () => {
    expect(listPlans('annual').map((p) => [p.id, p.price, p.originalPrice])).toEqual([
      ['FREE', 0, 0],
      ['BASIC', 2990, 3588],
      ['PRO', 5990, 7188],
      ['ENTERPRISE', 19990, 23988],
    ]);
  });

  it('takes configured prices', () => {
    const prices = { ...DEFAULT_MONTHLY_PRICES, BASIC: 349 };
    expect(priceFor('BASIC', 'annual', prices)).toBe(3490);
    expect(listPlans('monthly', prices)[1]).toMatchObject({ id: 'BASIC', price: 349 });
  });

  it('offers the 14-day trial on BASIC and PRO only, with each plan’s own limits', () => {
    for (const p of listPlans('monthly')) {
      expect(p.trialDays).toBe(p.id === 'BASIC' || p.id === 'PRO' ? 14 : null);
      expect(p.limits).toBe(PLAN_LIMITS[p.id]);
    }
  });
});
