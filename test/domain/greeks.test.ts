import { describe, expect, it } from 'vitest';
import {
  bsGreeks,
  bsPrice,
  expiryInstantMs,
  impliedVolatility,
  normCdf,
  normPdf,
  yearFraction,
  type BsInputs,
} from '../../src/domain/greeks.js';
import { mulberry32 } from '../helpers/mulberry32.js';

/** Random but sensible market inputs: moneyness within e^±0.6, 1 week to 3 years. */
function randomInputs(rand: () => number): Omit<BsInputs, 'type'> {
  const S = 5 + rand() * 500;
  return {
    S,
    K: S * Math.exp((rand() - 0.5) * 1.2),
    T: 7 / 365 + rand() * 3,
    r: rand() * 0.08 - 0.01,
    q: rand() * 0.06,
    sigma: 0.05 + rand() * 1.2,
  };
}

describe('normCdf', () => {
  // Reference: 0.5·erfc(−x/√2) from CPython's libm-backed math.erfc.
  const reference: [number, number][] = [
    [0, 0.5],
    [0.3, 0.6179114221889526],
    [0.5, 0.6914624612740131],
    [-0.7, 0.24196365222307306],
    [1, 0.8413447460685429],
    [-1.96, 0.024997895148220435],
    [2.5, 0.9937903346742238],
    [3, 0.9986501019683699],
    [-3, 0.0013498980316300957],
    [-5.6, 1.0717590258310968e-8],
    [-6, 9.865876450377012e-10],
    [8, 0.9999999999999993],
    [-10, 7.619853024160593e-24],
    [-20, 2.7536241186063314e-89],
    [-37, 5.725571222525139e-300],
  ];

  it.each(reference)('Φ(%d) to full double precision', (x, expected) => {
    const got = normCdf(x);
    expect(Math.abs(got - expected)).toBeLessThan(1e-15);
    expect(Math.abs(got - expected) / expected).toBeLessThan(1e-12); // tails keep relative accuracy
  });

  it('is symmetric, monotone and bounded', () => {
    let prev = 0;
    for (let x = -12; x <= 12; x += 0.01) {
      const v = normCdf(x);
      expect(Math.abs(v + normCdf(-x) - 1)).toBeLessThan(1e-15);
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
    expect(normCdf(-50)).toBe(0);
    expect(normCdf(50)).toBe(1);
    expect(normCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normCdf(Number.NaN)).toBeNaN();
  });

  it('is the integral of normPdf (Simpson over [−8, x])', () => {
    for (const x of [-2, -0.3, 0, 0.66, 1.5, 4]) {
      const n = 4000;
      const h = (x + 8) / n;
      let s = normPdf(-8) + normPdf(x);
      for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * normPdf(-8 + i * h);
      expect(normCdf(x)).toBeCloseTo((s * h) / 3 + normCdf(-8), 12);
    }
  });
});

describe('bsPrice', () => {
  it('matches Hull: S=42, K=40, r=10%, σ=20%, T=0.5 → call 4.76, put 0.81', () => {
    const p = { S: 42, K: 40, r: 0.1, q: 0, sigma: 0.2, T: 0.5 };
    expect(bsPrice({ ...p, type: 'call' })).toBeCloseTo(4.76, 2);
    expect(bsPrice({ ...p, type: 'put' })).toBeCloseTo(0.81, 2);
  });

  it('matches Haug with a dividend yield: S=100, K=95, T=0.5, r=10%, q=5%, σ=20% → put 2.4648', () => {
    expect(bsPrice({ type: 'put', S: 100, K: 95, T: 0.5, r: 0.1, q: 0.05, sigma: 0.2 })).toBeCloseTo(2.4648, 4);
  });

  it('matches Hull: S=49, K=50, r=5%, σ=20%, T=20 weeks → call 2.40', () => {
    expect(bsPrice({ type: 'call', S: 49, K: 50, r: 0.05, q: 0, sigma: 0.2, T: 0.3846 })).toBeCloseTo(2.4, 2);
  });

  it('satisfies put–call parity C − P = Se^−qT − Ke^−rT for 1000 random inputs', () => {
    const rand = mulberry32(1);
    for (let i = 0; i < 1000; i++) {
      const p = randomInputs(rand);
      const c = bsPrice({ ...p, type: 'call' });
      const put = bsPrice({ ...p, type: 'put' });
      const forward = p.S * Math.exp(-p.q * p.T) - p.K * Math.exp(-p.r * p.T);
      expect(Math.abs(c - put - forward)).toBeLessThan(1e-12 * Math.max(p.S, p.K));
    }
  });

  it('stays within the no-arbitrage bounds', () => {
    const rand = mulberry32(2);
    for (let i = 0; i < 500; i++) {
      const p = randomInputs(rand);
      const fS = p.S * Math.exp(-p.q * p.T);
      const fK = p.K * Math.exp(-p.r * p.T);
      const c = bsPrice({ ...p, type: 'call' });
      const put = bsPrice({ ...p, type: 'put' });
      const eps = 1e-12 * Math.max(p.S, p.K);
      expect(c).toBeGreaterThanOrEqual(Math.max(fS - fK, 0) - eps);
      expect(c).toBeLessThanOrEqual(fS + eps);
      expect(put).toBeGreaterThanOrEqual(Math.max(fK - fS, 0) - eps);
      expect(put).toBeLessThanOrEqual(fK + eps);
    }
  });

  it('is the intrinsic value at expiry and the discounted forward intrinsic with zero vol', () => {
    expect(bsPrice({ type: 'call', S: 105, K: 100, T: 0, r: 0.05, q: 0, sigma: 0.3 })).toBe(5);
    expect(bsPrice({ type: 'put', S: 105, K: 100, T: 0, r: 0.05, q: 0, sigma: 0.3 })).toBe(0);
    expect(bsPrice({ type: 'put', S: 95, K: 100, T: -0.1, r: 0.05, q: 0, sigma: 0.3 })).toBe(5);
    expect(bsPrice({ type: 'call', S: 100, K: 100, T: 1, r: 0.05, q: 0, sigma: 0 })).toBeCloseTo(100 - 100 * Math.exp(-0.05), 12);
    expect(bsPrice({ type: 'put', S: 100, K: 100, T: 1, r: 0.05, q: 0, sigma: 0 })).toBe(0);
  });
});

describe('bsGreeks', () => {
  it('matches Hull: S=49, K=50, r=5%, σ=20%, T=0.3846 → Δ 0.522, Γ 0.066, Θ −4.31/yr, vega 12.1 per 100%', () => {
    const g = bsGreeks({ type: 'call', S: 49, K: 50, r: 0.05, q: 0, sigma: 0.2, T: 0.3846 })!;
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.theta * 365).toBeCloseTo(-4.31, 2); // theta is per calendar day
    expect(g.vega * 100).toBeCloseTo(12.1, 1); // vega is per vol point
  });

  it('matches Haug: delta (S=105, K=100, T=0.5, r=10%, b=0, σ=36%) → call 0.5946, put −0.3566', () => {
    const p = { S: 105, K: 100, T: 0.5, r: 0.1, q: 0.1, sigma: 0.36 };
    expect(bsGreeks({ ...p, type: 'call' })!.delta).toBeCloseTo(0.5946, 4);
    expect(bsGreeks({ ...p, type: 'put' })!.delta).toBeCloseTo(-0.3566, 4);
  });

  it('matches Haug: gamma (S=55, K=60, T=0.75, r=b=10%, σ=30%) → 0.0278', () => {
    expect(bsGreeks({ type: 'call', S: 55, K: 60, T: 0.75, r: 0.1, q: 0, sigma: 0.3 })!.gamma).toBeCloseTo(0.0278, 4);
  });

  it('matches Haug: put theta (S=430, K=405, T=0.0833, r=7%, q=5%, σ=20%) → −31.1924 per year', () => {
    const g = bsGreeks({ type: 'put', S: 430, K: 405, T: 0.0833, r: 0.07, q: 0.05, sigma: 0.2 })!;
    expect(g.theta * 365).toBeCloseTo(-31.1924, 4);
  });

  it('agrees with central finite differences of bsPrice for 300 random inputs', () => {
    const rand = mulberry32(3);
    for (let i = 0; i < 300; i++) {
      const base = randomInputs(rand);
      for (const type of ['call', 'put'] as const) {
        const p: BsInputs = { ...base, type };
        const g = bsGreeks(p)!;
        const price = (over: Partial<BsInputs>): number => bsPrice({ ...p, ...over });
        const hS = p.S * 1e-4;
        const hT = Math.min(1e-5, p.T / 10);
        const hV = 1e-5;
        const delta = (price({ S: p.S + hS }) - price({ S: p.S - hS })) / (2 * hS);
        const gamma = (price({ S: p.S + hS }) - 2 * price({}) + price({ S: p.S - hS })) / (hS * hS);
        const thetaPerDay = -(price({ T: p.T + hT }) - price({ T: p.T - hT })) / (2 * hT) / 365;
        const vegaPerPoint = (price({ sigma: p.sigma + hV }) - price({ sigma: p.sigma - hV })) / (2 * hV) / 100;
        expect(Math.abs(g.delta - delta)).toBeLessThan(1e-6);
        expect(Math.abs(g.gamma - gamma)).toBeLessThan(1e-4 * Math.max(Math.abs(gamma), 1e-3));
        expect(Math.abs(g.theta - thetaPerDay)).toBeLessThan(1e-6 * Math.max(Math.abs(thetaPerDay), 1e-2));
        expect(Math.abs(g.vega - vegaPerPoint)).toBeLessThan(1e-6 * Math.max(Math.abs(vegaPerPoint), 1e-2));
      }
    }
  });

  it('call and put share gamma and vega; deltas differ by e^−qT', () => {
    const p = { S: 100, K: 110, T: 0.7, r: 0.03, q: 0.02, sigma: 0.25 };
    const c = bsGreeks({ ...p, type: 'call' })!;
    const put = bsGreeks({ ...p, type: 'put' })!;
    expect(c.gamma).toBeCloseTo(put.gamma, 14);
    expect(c.vega).toBeCloseTo(put.vega, 14);
    expect(c.delta - put.delta).toBeCloseTo(Math.exp(-p.q * p.T), 14);
  });

  it('is undefined when the greeks do not exist', () => {
    const p: BsInputs = { type: 'call', S: 100, K: 100, T: 0.5, r: 0.05, q: 0, sigma: 0.2 };
    expect(bsGreeks({ ...p, T: 0 })).toBeUndefined();
    expect(bsGreeks({ ...p, T: -1 })).toBeUndefined();
    expect(bsGreeks({ ...p, sigma: 0 })).toBeUndefined();
    expect(bsGreeks({ ...p, S: 0 })).toBeUndefined();
    expect(bsGreeks({ ...p, K: Number.NaN })).toBeUndefined();
  });
});

describe('impliedVolatility', () => {
  it('recovers sigma from the price for 1000 random inputs', () => {
    const rand = mulberry32(4);
    for (let i = 0; i < 1000; i++) {
      const base = randomInputs(rand);
      for (const type of ['call', 'put'] as const) {
        const price = bsPrice({ ...base, type });
        const iv = impliedVolatility({ type, price, S: base.S, K: base.K, T: base.T, r: base.r, q: base.q });
        const fS = base.S * Math.exp(-base.q * base.T);
        const fK = base.K * Math.exp(-base.r * base.T);
        const timeValue = price - Math.max(type === 'call' ? fS - fK : fK - fS, 0);
        // A deep in-the-money price whose time value is lost in rounding carries no sigma.
        if (timeValue < 1e-12 * base.S) continue;
        expect(iv).toBeDefined();
        // Where vega is tiny the price barely pins sigma down; the repricing still must hold.
        expect(Math.abs(bsPrice({ ...base, type, sigma: iv! }) - price)).toBeLessThan(1e-9 * Math.max(1, price));
        if (bsGreeks({ ...base, type })!.vega > 1e-4 * base.S) {
          expect(Math.abs(iv! - base.sigma)).toBeLessThan(1e-10);
        }
      }
    }
  });

  it('gives the call and the put at one strike the same IV (parity-consistent)', () => {
    const rand = mulberry32(5);
    for (let i = 0; i < 300; i++) {
      const { sigma, ...p } = randomInputs(rand);
      const call = impliedVolatility({ ...p, type: 'call', price: bsPrice({ ...p, sigma, type: 'call' }) });
      const put = impliedVolatility({ ...p, type: 'put', price: bsPrice({ ...p, sigma, type: 'put' }) });
      if (call === undefined || put === undefined) continue;
      if (bsGreeks({ ...p, sigma, type: 'call' })!.vega < 1e-3 * p.S) continue;
      expect(Math.abs(call - put)).toBeLessThan(1e-12);
    }
  });

  it('recovers the Hull volatility from the rounded textbook price', () => {
    const iv = impliedVolatility({ type: 'call', price: 4.76, S: 42, K: 40, T: 0.5, r: 0.1, q: 0 });
    expect(iv).toBeCloseTo(0.2, 3);
  });

  it('solves near the ends of its range', () => {
    for (const sigma of [0.01, 0.002, 3, 4.9]) {
      const p = { S: 100, K: 100, T: 0.25, r: 0.02, q: 0.01 };
      const price = bsPrice({ ...p, type: 'call', sigma });
      expect(impliedVolatility({ ...p, type: 'call', price })).toBeCloseTo(sigma, 9);
    }
  });

  it('is undefined for prices outside the no-arbitrage bounds', () => {
    const p = { S: 100, K: 80, T: 1, r: 0.05, q: 0.02 };
    const fS = 100 * Math.exp(-0.02);
    const fK = 80 * Math.exp(-0.05);
    // below the BSM lower bound (intrinsic of the forward) and at it
    expect(impliedVolatility({ ...p, type: 'call', price: fS - fK - 0.5 })).toBeUndefined();
    expect(impliedVolatility({ ...p, type: 'call', price: fS - fK })).toBeUndefined();
    // at or above the upper bound (Se^−qT for a call, Ke^−rT for a put)
    expect(impliedVolatility({ ...p, type: 'call', price: fS })).toBeUndefined();
    expect(impliedVolatility({ ...p, type: 'call', price: 150 })).toBeUndefined();
    expect(impliedVolatility({ ...p, type: 'put', price: fK })).toBeUndefined();
    expect(impliedVolatility({ ...p, type: 'put', price: 0 })).toBeUndefined();
    expect(impliedVolatility({ ...p, type: 'put', price: -1 })).toBeUndefined();
  });

  it('is undefined when the solution lies outside [1e−4, 5]', () => {
    const p = { S: 100, K: 100, T: 0.25, r: 0.02, q: 0.01 };
    const tooHigh = bsPrice({ ...p, type: 'call', sigma: 8 });
    expect(impliedVolatility({ ...p, type: 'call', price: tooHigh })).toBeUndefined();
    // at the money, a time value of 0.001 on 100 needs sigma ≈ 2.5e−5
    expect(impliedVolatility({ type: 'call', price: 0.001, S: 100, K: 100, T: 1, r: 0, q: 0 })).toBeUndefined();
    expect(impliedVolatility({ type: 'put', price: 0.001, S: 100, K: 100, T: 1, r: 0, q: 0 })).toBeUndefined();
  });

  it('is undefined at or after expiry and for invalid inputs', () => {
    const p = { type: 'call' as const, price: 5, S: 100, K: 100, r: 0.05, q: 0 };
    expect(impliedVolatility({ ...p, T: 0 })).toBeUndefined();
    expect(impliedVolatility({ ...p, T: -0.01 })).toBeUndefined();
    expect(impliedVolatility({ ...p, T: 1, price: Number.NaN })).toBeUndefined();
    expect(impliedVolatility({ ...p, T: 1, S: 0 })).toBeUndefined();
    expect(impliedVolatility({ ...p, T: 1, K: -5 })).toBeUndefined();
  });
});

describe('yearFraction and expiryInstantMs', () => {
  it('expiry is 16:00 New York: 21:00Z in winter, 20:00Z in summer', () => {
    expect(new Date(expiryInstantMs('2025-12-19')).toISOString()).toBe('2025-12-19T21:00:00.000Z');
    expect(new Date(expiryInstantMs('2025-07-18')).toISOString()).toBe('2025-07-18T20:00:00.000Z');
  });

  it('follows the DST switch days and the pre-2007 rules', () => {
    expect(new Date(expiryInstantMs('2025-03-09')).toISOString()).toBe('2025-03-09T20:00:00.000Z'); // EDT from 02:00
    expect(new Date(expiryInstantMs('2025-03-08')).toISOString()).toBe('2025-03-08T21:00:00.000Z');
    expect(new Date(expiryInstantMs('2025-11-02')).toISOString()).toBe('2025-11-02T21:00:00.000Z'); // EST from 02:00
    expect(new Date(expiryInstantMs('2005-04-01')).toISOString()).toBe('2005-04-01T21:00:00.000Z'); // DST began 3 April in 2005
  });

  it('counts ACT/365 years to the expiry instant', () => {
    const expiry = Date.parse('2025-12-19T21:00:00Z');
    expect(yearFraction(expiry, '2025-12-19')).toBe(0);
    expect(yearFraction(expiry - 86_400_000, '2025-12-19')).toBeCloseTo(1 / 365, 15);
    expect(yearFraction(expiry - 365 * 86_400_000, '2025-12-19')).toBeCloseTo(1, 15);
    // market open on expiration day: 6.5 hours left
    expect(yearFraction(Date.parse('2025-12-19T14:30:00Z'), '2025-12-19')).toBeCloseTo(6.5 / 24 / 365, 15);
  });

  it('is negative after expiry', () => {
    expect(yearFraction(Date.parse('2025-12-19T21:00:01Z'), '2025-12-19')).toBeLessThan(0);
  });

  it('rejects a malformed date', () => {
    expect(() => yearFraction(0, '2025-1-9')).toThrow(RangeError);
    expect(() => expiryInstantMs('20251219')).toThrow(RangeError);
  });
});
