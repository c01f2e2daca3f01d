/** A USD amount with cents, never "-0.00". */
export function usd(value: number): string {
  return fixed(value, 2);
}

/** A fraction written as a percentage with two decimals: 0.125 -> "12.50%". */
export function percent(fraction: number): string {
  return `${fixed(fraction * 100, 2)}%`;
}

/** A plain decimal with `digits` decimals, never negative zero. */
export function fixed(value: number, digits: number): string {
  // Anything that would print as zero prints as positive zero.
  if (!Number.isFinite(value) || Math.abs(value) < 0.5 * 10 ** -digits) return (0).toFixed(digits);
  return value.toFixed(digits);
}

/** Whole cents of a USD amount, so sums and differences of formatted values are exact. */
export function cents(value: number): number {
  return Math.round(value * 100);
}
