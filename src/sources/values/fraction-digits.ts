import type { CurrencyCode } from '../../contract/currencies.js';

/**
 * ISO 4217 minor units where they are not two, and BTC, one of the service's extras, in satoshi.
 * The spec (partner-api.md) only says amounts are JSON numbers: the bridge keeps an amount to what
 * its currency can hold, so a value the service would store rounded is refused instead.
 */
const NOT_TWO: Partial<Record<CurrencyCode, number>> = {
  BIF: 0,
  BYR: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
  BTC: 8,
};

/** Codes ISO 4217 gives no minor unit (metals, the SDR, test and fund codes): no limit. */
const NO_MINOR_UNIT = new Set('XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX'.split(' '));

/** How many fraction digits an amount in `currency` can have; undefined: no limit (or not a currency). */
export function fractionDigitsOf(currency: string): number | undefined {
  if (NO_MINOR_UNIT.has(currency) || !/^[A-Z]{3}$/.test(currency)) return undefined;
  return NOT_TWO[currency as CurrencyCode] ?? 2;
}

/** The fraction digits of a canonical decimal text ("-12.345" -> 3). */
export function fractionDigitsIn(decimal: string): number {
  const point = decimal.indexOf('.');
  return point < 0 ? 0 : decimal.length - point - 1;
}
