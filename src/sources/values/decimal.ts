/**
 * Exact arithmetic on canonical decimal strings ("-1234.56"), for debit/credit columns and
 * control totals: money is summed as scaled BigInts, never as binary floating point.
 */
interface Scaled {
  units: bigint;
  scale: number;
}

function toScaled(decimal: string): Scaled {
  const negative = decimal.startsWith('-');
  const [int = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const units = BigInt(int + frac);
  return { units: negative ? -units : units, scale: frac.length };
}

function rescale(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function fromScaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = frac ? `${int}.${frac}` : int;
  return negative && text !== '0' ? `-${text}` : text;
}

export function addDecimals(a: string, b: string): string {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = Math.max(x.scale, y.scale);
  return fromScaled(rescale(x, scale) + rescale(y, scale), scale);
}

export function negateDecimal(a: string): string {
  if (a === '0') return a;
  return a.startsWith('-') ? a.slice(1) : `-${a}`;
}

/** A running exact sum, cheap to add to a million times. */
export class DecimalSum {
  private units = 0n;
  private scale = 0;

  add(decimal: string): void {
    const value = toScaled(decimal);
    if (value.scale > this.scale) {
      this.units *= 10n ** BigInt(value.scale - this.scale);
      this.scale = value.scale;
    }
    this.units += rescale(value, this.scale);
  }

  toString(): string {
    return fromScaled(this.units, this.scale);
  }
}
