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

/** Whether decimal text is zero, whatever its sign and digits ("0", "-0.00", "000.0"). */
export const isZeroDecimal = (decimal: string): boolean => /^-?0*(?:\.0*)?$/.test(decimal);

export function negateDecimal(a: string): string {
  if (a === '0') return a;
  return a.startsWith('-') ? a.slice(1) : `-${a}`;
}

/** Plain decimal text ("-1234.56"); up to 15 characters long, its digits are a Number exactly. */
const SMALL_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A running exact sum, cheap to add to a million times: amounts that fit the current scale are
 * added as safe integers (exact), and folded into the BigInt total only when the scale grows or
 * the integer part of the sum would stop being exact.
 */
export class DecimalSum {
  private units = 0n;
  private scale = 0;
  /** Not yet folded into `units`, in the same units of 10^-scale; always a safe integer. */
  private pending = 0;

  add(decimal: string): void {
    const point = decimal.indexOf('.');
    const fractionDigits = point < 0 ? 0 : decimal.length - point - 1;
    if (fractionDigits <= this.scale && decimal.length <= 15 && SMALL_DECIMAL.test(decimal)) {
      const digits = fractionDigits === 0 ? decimal : decimal.replace('.', '');
      const sum = this.pending + Number(digits) * 10 ** (this.scale - fractionDigits);
      if (Number.isSafeInteger(sum)) {
        this.pending = sum;
        return;
      }
    }
    this.fold();
    const value = toScaled(decimal);
    if (value.scale > this.scale) {
      this.units *= 10n ** BigInt(value.scale - this.scale);
      this.scale = value.scale;
    }
    this.units += rescale(value, this.scale);
  }

  toString(): string {
    this.fold();
    return fromScaled(this.units, this.scale);
  }

  private fold(): void {
    this.units += BigInt(this.pending);
    this.pending = 0;
  }
}
