import { failed, type Parsed, parsed } from './result.js';

export type DecimalSeparator = ',' | '.';

export interface Amount {
  /** The JSON number sent to the service; equal to `decimal` exactly (checked). */
  value: number;
  /** Canonical decimal text, e.g. "-1234.56": what control totals are summed from, exactly. */
  decimal: string;
}

/** Currency symbols and ISO codes that exports put before or after amounts ("$26.67", "1.234,56 EUR"). */
const CURRENCY_AFFIX =
  /^(?:[A-Z]{3}|[$€£¥₣₤₹₽₺₩₪₫฿]|CHF|Fr\.|SFr\.|kr)\s*|\s*(?:[A-Z]{3}|[$€£¥₣₤₹₽₺₩₪₫฿]|CHF|Fr\.|SFr\.|kr)$/gu;

/** A bare amount: digits with optional thousands separators in groups of three, and a fraction. */
const SHAPES: Record<DecimalSeparator, RegExp> = {
  ',': /^(\d{1,3}(?:[.' ]\d{3})+|\d+)(?:,(\d+))?$/,
  '.': /^(\d{1,3}(?:[,' ]\d{3})+|\d+)(?:\.(\d+))?$/,
};

/**
 * Parses an amount as exports write it: decimal comma or point (as configured), thousands
 * separators in groups of three ('.', ',', space, apostrophe), currency symbols or codes, a
 * leading or trailing sign ("22,59-"), or parentheses for negatives. Strict where a misreading
 * would change the value: with a decimal comma, "1.5" is refused rather than read as 15; more
 * than one sign ("--5,00", "- 5,00 -", "+-5") or a sign with parentheses is refused, since
 * reading them cancelled the signs out and booked a debit as a credit.
 * A value a JSON number cannot carry exactly is refused, never rounded.
 */
export function parseAmount(text: string, decimalSeparator: DecimalSeparator): Parsed<Amount> {
  const trimmed = text.trim();
  // Most cells are a bare number ("1.234,56", "-1234,56"): read without a regular expression.
  const bare = bareDecimal(trimmed, decimalSeparator === ',' ? COMMA : POINT);
  if (bare !== undefined) return amountOf(text, bare);
  const shape = SHAPES[decimalSeparator];
  let negative = false;
  let match = shape.exec(trimmed);
  if (!match) {
    let s = trimmed.replace(/\u00a0|\u202f/g, ' ');
    if (s === '') return failed('expected an amount, found an empty cell');
    const bracketed = /^\(.*\)$/.test(s);
    if (bracketed) {
      negative = true;
      s = s.slice(1, -1).trim();
    }
    // Sign and currency may come in either order ("-$26.67", "$-26.67", "EUR 22,59-").
    let signs = 0;
    for (let pass = 0; pass < 2; pass++) {
      s = s.replace(CURRENCY_AFFIX, '').trim();
      for (const sign of [/^([+-])\s*/, /\s*([+-])$/]) {
        const found = sign.exec(s);
        if (!found) continue;
        signs++;
        if (found[1] === '-') negative = true;
        s = s.replace(sign, '');
      }
    }
    if (signs > 1 || (bracketed && signs > 0)) {
      return failed(
        `"${text}" has ${bracketed ? 'a sign and parentheses' : 'more than one sign'}; an amount has one sign at most (e.g. -5,00, 5,00- or (5,00))`,
      );
    }
    match = shape.exec(s);
  }
  if (!match) {
    const example = decimalSeparator === ',' ? '1.234,56' : '1,234.56';
    return failed(
      `"${text}" is not an amount with decimal separator "${decimalSeparator}" (expected e.g. ${example})`,
    );
  }
  const integer = (match[1] ?? '').replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const magnitude = fraction ? `${integer}.${fraction}` : integer;
  return amountOf(text, negative && magnitude !== '0' ? `-${magnitude}` : magnitude);
}

function amountOf(text: string, decimal: string): Parsed<Amount> {
  const value = Number(decimal);
  if (!exactlyRepresented(decimal, value)) {
    return failed(`"${text}" has more significant digits than the service's JSON numbers carry exactly`);
  }
  return parsed({ value, decimal });
}

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const APOSTROPHE = 39;
const SPACE = 32;
/** The decimal separator's code and the thousands separators that go with it (SHAPES). */
interface Separators {
  decimal: number;
  thousands: number;
}
const COMMA: Separators = { decimal: 44, thousands: 46 };
const POINT: Separators = { decimal: 46, thousands: 44 };

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/**
 * The canonical decimal of a cell that is a bare number with an optional leading "-", exactly as
 * SHAPES reads it (digits, or 1-3 digits then groups of three after a thousands separator, then
 * an optional fraction); undefined for anything else, which the general path reads or refuses.
 */
function bareDecimal(s: string, sep: Separators): string | undefined {
  const end = s.length;
  let i = s.charCodeAt(0) === MINUS ? 1 : 0;
  const negative = i === 1;
  const start = i;
  while (i < end && isDigit(s.charCodeAt(i))) i++;
  const firstGroup = i - start;
  if (firstGroup === 0) return undefined;
  let integer: string;
  const c = s.charCodeAt(i);
  if (i < end && (c === sep.thousands || c === APOSTROPHE || c === SPACE)) {
    if (firstGroup > 3) return undefined;
    integer = s.slice(start, i);
    while (i < end) {
      const t = s.charCodeAt(i);
      if (t !== sep.thousands && t !== APOSTROPHE && t !== SPACE) break;
      if (!isDigit(s.charCodeAt(i + 1)) || !isDigit(s.charCodeAt(i + 2)) || !isDigit(s.charCodeAt(i + 3)))
        return undefined;
      integer += s.slice(i + 1, i + 4);
      i += 4;
    }
  } else integer = s.slice(start, i);
  let fraction = '';
  if (i < end) {
    if (s.charCodeAt(i) !== sep.decimal) return undefined;
    const from = ++i;
    while (i < end && isDigit(s.charCodeAt(i))) i++;
    if (i === from || i < end) return undefined;
    let last = i;
    while (last > from && s.charCodeAt(last - 1) === ZERO) last--;
    fraction = s.slice(from, last);
  }
  let lead = 0;
  while (lead < integer.length - 1 && integer.charCodeAt(lead) === ZERO) lead++;
  if (lead > 0) integer = integer.slice(lead);
  const magnitude = fraction ? `${integer}.${fraction}` : integer;
  return negative && magnitude !== '0' ? `-${magnitude}` : magnitude;
}

/** True when the number prints back as the same decimal, i.e. nothing was rounded. */
function exactlyRepresented(decimal: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (decimal.length <= 15) return true; // at most 15 digits
  const digits = decimal.replace(/[-.]/g, '').replace(/^0+/, '');
  if (digits.length <= 15) return true;
  return decimalOf(value) === decimal;
}

/** Plain (non-exponential) decimal text of a number, as far as JavaScript prints it. */
export function decimalOf(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
