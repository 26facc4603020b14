import { describe, expect, it } from 'vitest';
import { round2, sameAmount } from '../src';

describe('round2', () => {
  it('rounds half away from zero despite binary floats', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(-1.005)).toBe(-1.01);
    expect(round2(0.1 + 0.2)).toBe(0.3);
    expect(round2(853.448276)).toBe(853.45);
  });

  it('never returns -0', () => {
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });
});

describe('sameAmount (0.01 tolerance)', () => {
  it('equal within one cent, float noise included', () => {
    expect(sameAmount(1000, 1000.01)).toBe(true);
    expect(sameAmount(0.1 + 0.2, 0.31)).toBe(true);
  });

  it('different beyond one cent', () => {
    expect(sameAmount(1000, 1000.011)).toBe(false);
    expect(sameAmount(1000, 999.98)).toBe(false);
  });
});
