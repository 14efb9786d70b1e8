import { failed, type Parsed, parsed } from '../values/result.js';

/**
 * The fields of the meta header (line 1) this reader checks or uses, by 1-based position. The
 * header of DATEV's format (header version 700) has 31 fields:
 *  1 marker (`EXTF` written by other programs, `DTVF` by DATEV's own), 2 header version (700),
 *  3 format category (21 Buchungsstapel, 16 Debitoren/Kreditoren, 20 Kontenbeschriftungen, …),
 *  4 format name, 5 format version, 6 created at (YYYYMMDDHHMMSSFFF), 7 imported, 8 origin,
 *  9 exported by, 10 imported by, 11 consultant number, 12 client number, 13 fiscal-year start
 *  (WJ-Beginn, YYYYMMDD), 14 G/L account length, 15 date from, 16 date to (Datum vom/bis,
 *  YYYYMMDD), 17 description, 18 dictation code, 19 booking type, 20 accounting purpose,
 *  21 locked, 22 currency (WKZ), 23 reserved, 24 derivative flag, 25–26 reserved, 27 chart of
 *  accounts (SKR), 28 industry solution id, 29–30 reserved, 31 application information.
 */
const FIELD = {
  marker: [1, 'Kennzeichen'],
  version: [2, 'Versionsnummer'],
  category: [3, 'Formatkategorie'],
  name: [4, 'Formatname'],
  formatVersion: [5, 'Formatversion'],
  fiscalYearStart: [13, 'WJ-Beginn'],
  accountLength: [14, 'Sachkontenlänge'],
  from: [15, 'Datum vom'],
  to: [16, 'Datum bis'],
  currency: [22, 'WKZ'],
} as const;
type FieldName = keyof typeof FIELD;

/** Format categories a user may export by mistake, named in the error. */
const CATEGORIES: Record<string, string> = {
  '16': 'Debitoren/Kreditoren',
  '20': 'Kontenbeschriftungen',
  '21': 'Buchungsstapel',
  '46': 'Zahlungsbedingungen',
  '48': 'Diverse Adressen',
  '65': 'Wiederkehrende Buchungen',
};

/** What the reader takes from a valid meta header of a booking batch. */
export interface DatevMeta {
  /** Fiscal-year start and the batch's date range, ISO dates (from ≤ to, both in that fiscal year). */
  fiscalYearStart: string;
  from: string;
  to: string;
  /** The batch's currency (field 22), for bookings whose `WKZ Umsatz` is empty. */
  currency: string | undefined;
}

/**
 * Checks the cells of line 1 of a DATEV export: a booking batch (EXTF or DTVF, header version 700,
 * category 21 "Buchungsstapel", a format version) with its fiscal year and date range. The reason
 * names the field by position and name, what it holds and what was expected.
 */
export function readMetaHeader(cells: readonly string[]): Parsed<DatevMeta> {
  const at = (field: FieldName) => (cells[FIELD[field][0] - 1] ?? '').trim();
  const wrong = (field: FieldName, expected: string) => {
    const [position, name] = FIELD[field];
    const held = cells[position - 1] === undefined ? 'is missing' : `is ${JSON.stringify(at(field))}`;
    return failed(`meta header field ${position} (${name}) ${held}: expected ${expected}`);
  };
  if (at('marker') !== 'EXTF' && at('marker') !== 'DTVF')
    return wrong('marker', '"EXTF" or "DTVF": line 1 of a DATEV export is its meta header');
  if (at('version') !== '700') return wrong('version', 'header version 700');
  if (at('category') !== '21') {
    const known = CATEGORIES[at('category')];
    return wrong(
      'category',
      `21 (Buchungsstapel), the only DATEV category read as bookings${known ? `; ${at('category')} is ${known}` : ''}`,
    );
  }
  if (at('name') !== 'Buchungsstapel') return wrong('name', '"Buchungsstapel" (category 21)');
  if (!/^[1-9]\d*$/.test(at('formatVersion'))) return wrong('formatVersion', 'a format version number');
  const fiscalYearStart = isoDate(at('fiscalYearStart'));
  if (!fiscalYearStart) return wrong('fiscalYearStart', 'the fiscal-year start as a date YYYYMMDD');
  if (at('accountLength') !== '' && !/^[4-8]$/.test(at('accountLength')))
    return wrong('accountLength', 'a G/L account length from 4 to 8');
  const from = isoDate(at('from'));
  if (!from) return wrong('from', "the batch's first date as YYYYMMDD");
  const to = isoDate(at('to'));
  if (!to) return wrong('to', "the batch's last date as YYYYMMDD");
  if (to < from) return wrong('to', `a date on or after Datum vom (${from})`);
  // A batch lies in one fiscal year: that is what lets a DDMM date find its year.
  const fiscalYearEnd = dayBefore(addYear(fiscalYearStart));
  if (from < fiscalYearStart || from > fiscalYearEnd)
    return wrong('from', `a date in the fiscal year starting ${fiscalYearStart} (WJ-Beginn)`);
  if (to > fiscalYearEnd)
    return wrong('to', `a date in the fiscal year ${fiscalYearStart} to ${fiscalYearEnd} (WJ-Beginn)`);
  const currency = at('currency');
  return parsed({ fiscalYearStart, from, to, currency: currency === '' ? undefined : currency });
}

/**
 * The date of a `Belegdatum` in the batch: DDMM (or DMM once a program dropped the leading zero;
 * DDMMYYYY where a program formats the field with a year, which DATEV ignores as well). The year
 * is the one of `Datum vom` or of `Datum bis` (they differ when the range spans a year end) whose
 * date lies in the range; none does → the reason.
 */
export function completeDate(written: string, meta: DatevMeta): Parsed<string> {
  const range = `the batch's range ${meta.from} to ${meta.to} (meta header Datum vom/bis)`;
  if (!/^(\d{3,4}|\d{8})$/.test(written)) return failed(`expected a day and month DDMM in ${range}`);
  const digits = written.length === 8 ? written.slice(0, 4) : written.padStart(4, '0');
  const [day, month] = [digits.slice(0, 2), digits.slice(2)];
  for (const year of new Set([meta.from.slice(0, 4), meta.to.slice(0, 4)])) {
    const date = isoDate(`${year}${month}${day}`);
    if (date && date >= meta.from && date <= meta.to) return parsed(date);
  }
  return failed(`expected a day and month DDMM in ${range}; ${day}.${month}. is no day in it`);
}

/** YYYYMMDD as an ISO date, when it is a real day. */
function isoDate(text: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

function addYear(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year + 1, month - 1, day)).toISOString().slice(0, 10);
}

function dayBefore(iso: string): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
