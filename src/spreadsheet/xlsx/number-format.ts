/**
 * A number as a person reads it in a cell with the General format, minus Excel's switch to
 * scientific notation: integral values as plain digits (142300123456, never 1.423E+11 or 12.0),
 * other values rounded to Excel's 15 significant digits, which also drops binary noise
 * (0.30000000000000004 → 0.3). Values below 1e-9 keep an exponent ("1.5E-12") rather than a
 * long run of zeros.
 */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value + 0); // + 0 turns -0 into 0
  if (!Number.isFinite(value)) return String(value);
  // The shortest text that reads back as this value; with at most 15 significant digits it is
  // also the value rounded to 15 digits (the common case, and far cheaper than toPrecision).
  const shortest = String(value);
  if (shortest.length <= 15 && !shortest.includes('e')) return shortest;
  const rounded = Number(value.toPrecision(15));
  if (rounded === 0) return '0';
  const text = String(rounded);
  if (!text.includes('e')) return text;
  if (Math.abs(rounded) < 1e-9) return text.replace('e', 'E');
  return expandExponent(text);
}

/** "1.5e+21" → "1500000000000000000000", "1.5e-7" → "0.00000015". */
function expandExponent(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', fraction = '', exponentText = '0'] = match;
  const digits = lead + fraction;
  const exponent = Number(exponentText);
  if (exponent >= 0) {
    const point = 1 + exponent;
    return point >= digits.length
      ? sign + digits + '0'.repeat(point - digits.length)
      : `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
}
