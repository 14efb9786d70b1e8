import { describe, expect, it } from 'vitest';
import { compileDateFormat, parseDate } from '../../../src/sources/values/date.js';

const read = (text: string, format: string) => {
  const r = parseDate(text, compileDateFormat(format));
  return r.ok ? r.value : `ERR ${r.reason}`;
};

describe('parseDate', () => {
  it('reads the supported formats to ISO dates', () => {
    expect(read('05.02.2026', 'dd.MM.yyyy')).toBe('2026-02-05');
    expect(read('2026-02-05', 'yyyy-MM-dd')).toBe('2026-02-05');
    expect(read('5.2.2026', 'd.M.yyyy')).toBe('2026-02-05');
    expect(read('02/05/2026', 'MM/dd/yyyy')).toBe('2026-02-05');
  });

  it('takes dates without leading zeros under a zero-padded format', () => {
    expect(read('5.2.2026', 'dd.MM.yyyy')).toBe('2026-02-05');
  });

  it('reads two-digit years with the POSIX pivot', () => {
    expect(read('03.04.18', 'dd.MM.yy')).toBe('2018-04-03');
    expect(read('03.04.18', 'dd.MM.yyyy')).toBe('2018-04-03');
    expect(read('01.01.68', 'dd.MM.yy')).toBe('2068-01-01');
    expect(read('01.01.69', 'dd.MM.yy')).toBe('1969-01-01');
  });

  it('takes the date part of ISO timestamps under yyyy-MM-dd', () => {
    expect(read('2026-02-05T17:47:21Z', 'yyyy-MM-dd')).toBe('2026-02-05');
    expect(read('2026-02-05T17:47:21+01:00', 'yyyy-MM-dd')).toBe('2026-02-05');
  });

  it('takes the date part of SQL timestamps (a space before the time) under yyyy-MM-dd, as databases print them', () => {
    expect(read('2026-11-01 10:00:00', 'yyyy-MM-dd')).toBe('2026-11-01');
    expect(read('2026-11-01 23:59:59.123456+01', 'yyyy-MM-dd')).toBe('2026-11-01');
    expect(read('2026-11-01 10:00:00.5-05:30', 'yyyy-MM-dd')).toBe('2026-11-01');
    // Not a time after the space: no date.
    expect(read('2026-11-01 foo', 'yyyy-MM-dd')).toMatch(/not a date/);
    expect(read('2026-11-01 10:00:00', 'dd.MM.yyyy')).toMatch(/not a date/);
  });

  it('refuses impossible dates and wrong shapes with a reason', () => {
    expect(read('30.02.2026', 'dd.MM.yyyy')).toMatch(/not a calendar date/);
    expect(read('2026-02-05', 'dd.MM.yyyy')).toMatch(/not a date as dd.MM.yyyy/);
    expect(read('', 'dd.MM.yyyy')).toMatch(/empty cell/);
    expect(read('05.02.20266', 'dd.MM.yyyy')).toMatch(/not a date/);
  });

  it('refuses unsupported format strings up front', () => {
    expect(() => compileDateFormat('dd.MMM.yyyy')).toThrow(/unsupported date format/);
    expect(() => compileDateFormat('dd.MM')).toThrow(/unsupported date format/);
  });
});
