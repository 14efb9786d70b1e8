import { describe, expect, it } from 'vitest';
import { inferred, lines } from './exports.js';

const bank = (...dates: string[]) =>
  lines('Date,Amount,Description', ...dates.map((d, i) => `${d},${i % 2 ? '' : '-'}1${i}.50,row ${i}`));

describe('init infers the date format from every sampled value', () => {
  it('MM/dd/yyyy dates whose days are all <= 12: asked, both readings listed, none picked', () => {
    const got = inferred(bank('01/02/2026', '03/04/2026', '11/12/2026', '12/01/2026'));
    expect(got.dateFormat).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(got.dateFormat.candidates).toEqual(['dd/MM/yyyy', 'MM/dd/yyyy']);
    expect(got.dateFormat.reason).toMatch(/day and month cannot be told apart/);
    // The column is still the booking date; only not surely read.
    expect(got.mapping.bookingDate).toMatchObject({ value: 'Date', certainty: 'guess' });
    expect(got.dateColumns).toEqual([{ column: 'Date', formats: ['dd/MM/yyyy', 'MM/dd/yyyy'] }]);
  });

  it('one day above 12 decides: MM/dd/yyyy is sure', () => {
    const got = inferred(bank('01/02/2026', '03/04/2026', '01/13/2026'));
    expect(got.dateFormat).toMatchObject({ value: 'MM/dd/yyyy', certainty: 'sure' });
    expect(got.mapping.bookingDate).toMatchObject({ value: 'Date', certainty: 'sure' });
  });

  it.each([
    ['a day above 12 first: dd/MM/yyyy', ['13/02/2026', '03/04/2026'], 'dd/MM/yyyy'],
    ['two-digit years: yy', ['01.02.26', '03.04.26'], 'dd.MM.yy'],
    // Dotted dates are never read month first.
    ['four-digit years, some without leading zeros: yyyy', ['01.02.2026', '3.4.2026'], 'dd.MM.yyyy'],
    ['ISO dates, ISO timestamps too', ['2026-01-02', '2026-01-03T10:00:00Z'], 'yyyy-MM-dd'],
  ])('%s', (_, dates, format) => {
    expect(inferred(bank(...dates)).dateFormat).toMatchObject({ value: format, certainty: 'sure' });
  });

  it('two date columns in different formats: asked (a feed has one dateFormat)', () => {
    const got = inferred(
      lines('Buchungstag;Valuta;Betrag', '01.02.2026;2026-02-01;-5,00', '13.02.2026;2026-02-13;7,00'),
    );
    expect(got.dateFormat.certainty).toBe('ask');
    expect(got.dateFormat.reason).toMatch(/different formats/);
    expect(got.mapping.bookingDate?.certainty).not.toBe('sure');
  });

  it('a column whose days show the order decides it for the other date columns (a feed has one dateFormat)', () => {
    const got = inferred(
      lines('Buchungstag,Valuta,Betrag', '13/02/2026,02/03/2026,-5.00', '14/02/2026,02/04/2026,7.00'),
    );
    expect(got.dateFormat.certainty).toBe('sure');
    expect(got.dateFormat.value).toBe('dd/MM/yyyy');
  });
});
