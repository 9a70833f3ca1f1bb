// Upstream's decimal quantity strings (ds, dv, dav, decimal_size, decimal_volume): a volume or size
// that may hold fractional shares, written as text with the fraction in millionths at most. Its
// bodies always write a fractional part, ".0" for a whole number ("236.0", "28727868.0").

const MAX_FRACTION_DIGITS = 6;

/** `x` as upstream's decimal string: at least one and at most six fractional digits, trailing zeros dropped. */
export function decimalQuantity(x: number): string {
  const fixed = x.toFixed(MAX_FRACTION_DIGITS).replace(/0+$/, '');
  return fixed.endsWith('.') ? `${fixed}0` : fixed;
}
