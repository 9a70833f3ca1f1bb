/**
 * Black–Scholes–Merton pricing, greeks and implied volatility for European options on
 * an underlying with a continuous dividend yield q. Pure functions, no I/O.
 *
 * Units follow upstream's option snapshot (`greeks`, `implied_volatility`):
 * - T in years, r, q and sigma as annual decimals (0.05 = 5 %);
 * - theta per calendar day (the annual ∂V/∂t divided by 365), negative for a long option
 *   losing time value;
 * - vega per one volatility point (the change in price for sigma + 0.01);
 * - delta and gamma per unit of the underlying.
 */

import type { ContractType } from './option-symbol.js';

export interface BsInputs {
  type: ContractType;
  /** Underlying price. */
  S: number;
  /** Strike. */
  K: number;
  /** Time to expiry in years. */
  T: number;
  /** Continuously compounded risk-free rate. */
  r: number;
  /** Continuous dividend yield. */
  q: number;
  /** Volatility. */
  sigma: number;
}

export type IvInputs = Omit<BsInputs, 'sigma'> & { price: number };

export interface Greeks {
  delta: number;
  gamma: number;
  /** Per calendar day. */
  theta: number;
  /** Per volatility point (0.01 of sigma). */
  vega: number;
}

const DAYS_PER_YEAR = 365;
const MS_PER_YEAR = DAYS_PER_YEAR * 86_400_000;
const INV_SQRT_2PI = 0.3989422804014327;

/** Standard normal density. */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

// W. J. Cody, "Rational Chebyshev approximations for the error function" (1969), as
// in his ANORM (ACM TOMS 715) and R's pnorm: near full double precision everywhere,
// including the far tails, where 1 − Φ(|x|) would cancel.
const CODY_A = [2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582, 18154.981253343561249, 0.065682337918207449113];
const CODY_B = [47.20258190468824187, 976.09855173777669322, 10260.932208618978205, 45507.789335026729956];
const CODY_C = [
  0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979, 597.27027639480026226, 2494.5375852903726711,
  6848.1904505362823326, 11602.651437647350124, 9842.7148383839780218, 1.0765576773720192317e-8,
];
const CODY_D = [
  22.266688044328115691, 235.38790178262499861, 1519.377599407554805, 6485.558298266760755, 18615.571640885098091,
  34900.952721145977266, 38912.003286093271411, 19685.429676859990727,
];
const CODY_P = [0.21589853405795699, 0.1274011611602473639, 0.022235277870649807, 0.001421619193227893466, 2.9112874951168792e-5, 0.02307344176494017303];
const CODY_Q = [1.28426009614491121, 0.468238212480865118, 0.0659881378689285515, 0.00378239633202758244, 7.29751555083966205e-5];

/** Standard normal cumulative distribution Φ(x). */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const y = Math.abs(x);
  if (y <= 0.66291) {
    const xsq = y > 1.11e-16 ? x * x : 0;
    let num = CODY_A[4]! * xsq;
    let den = xsq;
    for (let i = 0; i < 3; i++) {
      num = (num + CODY_A[i]!) * xsq;
      den = (den + CODY_B[i]!) * xsq;
    }
    return 0.5 + (x * (num + CODY_A[3]!)) / (den + CODY_B[3]!);
  }
  let upperTail: number; // Φ(−|x|)
  if (y <= 5.656854249492381) {
    let num = CODY_C[8]! * y;
    let den = y;
    for (let i = 0; i < 7; i++) {
      num = (num + CODY_C[i]!) * y;
      den = (den + CODY_D[i]!) * y;
    }
    upperTail = gaussianTail(y, (num + CODY_C[7]!) / (den + CODY_D[7]!));
  } else if (y < 38.5) {
    const xsq = 1 / (x * x);
    let num = CODY_P[5]! * xsq;
    let den = xsq;
    for (let i = 0; i < 4; i++) {
      num = (num + CODY_P[i]!) * xsq;
      den = (den + CODY_Q[i]!) * xsq;
    }
    const r = (xsq * (num + CODY_P[4]!)) / (den + CODY_Q[4]!);
    upperTail = gaussianTail(y, (INV_SQRT_2PI - r) / y);
  } else {
    upperTail = 0;
  }
  return x > 0 ? 1 - upperTail : upperTail;
}

/** exp(−y²/2)·factor, with y² split so the exponent keeps its precision for large y. */
function gaussianTail(y: number, factor: number): number {
  const ysq = Math.trunc(y * 16) / 16;
  const del = (y - ysq) * (y + ysq);
  return Math.exp(-ysq * ysq * 0.5) * Math.exp(-del * 0.5) * factor;
}

interface D1D2 {
  d1: number;
  d2: number;
  /** S·e^(−qT) */
  fwdS: number;
  /** K·e^(−rT) */
  fwdK: number;
  sqrtT: number;
}

function d1d2({ S, K, T, r, q, sigma }: BsInputs): D1D2 {
  const sqrtT = Math.sqrt(T);
  const volSqrtT = sigma * sqrtT;
  const d1 = (Math.log(S / K) + (r - q + 0.5 * sigma * sigma) * T) / volSqrtT;
  return { d1, d2: d1 - volSqrtT, fwdS: S * Math.exp(-q * T), fwdK: K * Math.exp(-r * T), sqrtT };
}

/**
 * BSM price. At or after expiry (T ≤ 0) the intrinsic value; with sigma ≤ 0 the
 * discounted intrinsic value of the forward.
 */
export function bsPrice(p: BsInputs): number {
  const sign = p.type === 'call' ? 1 : -1;
  if (p.T <= 0) return Math.max(sign * (p.S - p.K), 0);
  if (p.sigma <= 0) return Math.max(sign * (p.S * Math.exp(-p.q * p.T) - p.K * Math.exp(-p.r * p.T)), 0);
  const { d1, d2, fwdS, fwdK } = d1d2(p);
  return sign * (fwdS * normCdf(sign * d1) - fwdK * normCdf(sign * d2));
}

/**
 * BSM greeks (units in the module comment). Undefined when they do not exist as
 * numbers: expired (T ≤ 0), sigma ≤ 0, or S, K not positive, or any input non-finite.
 */
export function bsGreeks(p: BsInputs): Greeks | undefined {
  const { S, K, T, r, q, sigma } = p;
  if (![S, K, T, r, q, sigma].every(Number.isFinite) || S <= 0 || K <= 0 || T <= 0 || sigma <= 0) return undefined;
  const sign = p.type === 'call' ? 1 : -1;
  const { d1, d2, fwdS, fwdK, sqrtT } = d1d2(p);
  const pdf = normPdf(d1);
  const nd1 = normCdf(sign * d1);
  const nd2 = normCdf(sign * d2);
  // ∂V/∂t (calendar time passing) = −∂V/∂T.
  const thetaAnnual = (-fwdS * pdf * sigma) / (2 * sqrtT) - sign * r * fwdK * nd2 + sign * q * fwdS * nd1;
  return {
    delta: sign * Math.exp(-q * T) * nd1,
    gamma: (Math.exp(-q * T) * pdf) / (S * sigma * sqrtT),
    theta: thetaAnnual / DAYS_PER_YEAR,
    vega: (fwdS * pdf * sqrtT) / 100,
  };
}

const IV_MIN = 1e-4;
const IV_MAX = 5;
const IV_MAX_ITERATIONS = 200;

/**
 * The sigma in [1e−4, 5] at which bsPrice equals `price`.
 *
 * An in-the-money price is first turned into its out-of-the-money twin by put–call
 * parity (same sigma), so the solver works on the time value alone rather than on a
 * price dominated by intrinsic value; calls and puts at one strike then give one IV.
 * Newton steps on vega are kept inside a bracket that every evaluation narrows; a step
 * that leaves the bracket falls back to bisection, so the solver always converges.
 *
 * Undefined when: T ≤ 0; inputs are not positive and finite; the price violates the
 * BSM no-arbitrage bounds (call: max(Se^−qT − Ke^−rT, 0) < price < Se^−qT; put:
 * max(Ke^−rT − Se^−qT, 0) < price < Ke^−rT); or the solution lies outside [1e−4, 5].
 */
export function impliedVolatility(p: IvInputs): number | undefined {
  const { price, S, K, T, r, q } = p;
  if (![price, S, K, T, r, q].every(Number.isFinite) || S <= 0 || K <= 0 || T <= 0) return undefined;

  const fwdS = S * Math.exp(-q * T);
  const fwdK = K * Math.exp(-r * T);
  // Out-of-the-money twin: a call with fwdS > fwdK is worth its put plus (fwdS − fwdK).
  let type = p.type;
  let target = price;
  if (type === 'call' && fwdS > fwdK) {
    type = 'put';
    target = price - (fwdS - fwdK);
  } else if (type === 'put' && fwdK > fwdS) {
    type = 'call';
    target = price - (fwdK - fwdS);
  }
  const upper = type === 'call' ? fwdS : fwdK;
  if (!(target > 0 && target < upper)) return undefined;

  const f = (sigma: number): number => bsPrice({ type, S, K, T, r, q, sigma }) - target;
  let lo = IV_MIN;
  let hi = IV_MAX;
  if (f(lo) > 0 || f(hi) < 0) return undefined;

  // Manaster–Koehler start: the sigma at which vega peaks, so Newton starts where it is steepest.
  let sigma = Math.sqrt((2 * Math.abs(Math.log(S / K) + (r - q) * T)) / T);
  if (!(sigma > lo && sigma < hi)) sigma = 0.5 * (lo + hi);

  for (let i = 0; i < IV_MAX_ITERATIONS; i++) {
    const diff = f(sigma);
    if (diff === 0) return sigma;
    if (diff > 0) hi = sigma;
    else lo = sigma;

    const vega = fwdS * normPdf(d1d2({ type, S, K, T, r, q, sigma }).d1) * Math.sqrt(T);
    const newton = sigma - diff / vega;
    if (newton > lo && newton < hi) {
      if (Math.abs(newton - sigma) <= 1e-13 * sigma) return newton;
      sigma = newton;
    } else {
      sigma = 0.5 * (lo + hi);
      if (hi - lo <= 1e-13 * hi) return sigma;
    }
  }
  return sigma;
}

/**
 * Time to expiry in years (ACT/365): from `nowMs` to 16:00 America/New_York on
 * `expirationDate` (`YYYY-MM-DD`), when equity options stop trading, divided by 365
 * days of 24 h. Negative after that instant; callers treat T ≤ 0 as expired.
 */
export function yearFraction(nowMs: number, expirationDate: string): number {
  return (expiryInstantMs(expirationDate) - nowMs) / MS_PER_YEAR;
}

const NEW_YORK_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Unix ms of 16:00 America/New_York on a `YYYY-MM-DD` date. */
export function expiryInstantMs(expirationDate: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(expirationDate);
  if (!m) throw new RangeError(`expiration date must be YYYY-MM-DD: ${expirationDate}`);
  const wallAsUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 16);
  // Offset of New York from UTC at (about) that instant; 16:00 is never inside a DST jump.
  const guess = wallAsUtc + 5 * 3_600_000;
  const parts = Object.fromEntries(NEW_YORK_PARTS.formatToParts(guess).map((x) => [x.type, x.value]));
  const nyWallAtGuess = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMs = nyWallAtGuess - guess; // −5 h (EST) or −4 h (EDT)
  return wallAsUtc - offsetMs;
}
