import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferCsv } from '../../../src/init/infer-csv.js';
import { readSample, SAMPLE_ROWS } from '../../../src/init/sample.js';
import { DKB, inferred, lines, SPARKASSE, sureFormat } from './exports.js';

describe('init infers the format settings of a delimited export', () => {
  it('a Sparkasse CSV-CAMT export: UTF-8, ";", quoted, decimal comma, dd.MM.yy, header on line 1', () => {
    const got = inferred(SPARKASSE);
    expect(got.format).toMatchObject({ value: 'csv', certainty: 'sure' });
    expect(got.encoding).toMatchObject({ value: 'utf-8', certainty: 'sure' });
    expect(got.delimiter).toMatchObject({ value: ';', certainty: 'sure' });
    expect(got.quote).toMatchObject({ value: '"', certainty: 'sure' });
    expect(got.skipLines).toMatchObject({ value: 0, certainty: 'sure' });
    expect(got.headerPattern).toBeUndefined();
    expect(got.decimalSeparator).toMatchObject({ value: ',', certainty: 'sure' });
    expect(got.thousands).toMatchObject({ value: '.', certainty: 'sure' });
    expect(got.dateFormat).toMatchObject({ value: 'dd.MM.yy', certainty: 'sure' });
    expect(got.sample).toEqual({
      bytes: Buffer.byteLength(SPARKASSE),
      rows: 5,
      complete: true,
      rowsCapped: false,
    });
    expect(got.header[1]).toBe('Buchungstag');
  });

  it('a DKB export: the preamble with its blank lines is skipped, the header found by a pattern, the trailing ";" an empty column', () => {
    const got = inferred(DKB);
    expect(got.skipLines).toMatchObject({ value: 6, certainty: 'sure' });
    expect(got.headerPattern).toMatchObject({ value: '^Buchungstag;Wertstellung;', certainty: 'sure' });
    expect(got.delimiter).toMatchObject({ value: ';', certainty: 'sure' });
    expect(got.header).toHaveLength(12);
    expect(got.header[11]).toBe('');
    expect(got.dateFormat).toMatchObject({ value: 'dd.MM.yyyy', certainty: 'sure' });
    expect(got.decimalSeparator).toMatchObject({ value: ',', certainty: 'sure' });
    // The header pattern matches no preamble line, only the header as the CSV reader joins its cells.
    const pattern = new RegExp(got.headerPattern?.value ?? '');
    expect(DKB.split('\r\n').filter((line) => pattern.test(line.replace(/"/g, '')))).toHaveLength(1);
  });

  it('a DKB export of one booking: the preamble lines outnumber the rows, and are still no table', () => {
    const one = DKB.split('\r\n').slice(0, 8).join('\r\n');
    const got = inferred(one);
    expect(got.skipLines).toMatchObject({ value: 6, certainty: 'sure' });
    expect(got.header[0]).toBe('Buchungstag');
    expect(got.sample.rows).toBe(1);
    expect(got.skipFooterLines.value).toBe(0);
  });

  it('a DKB export without bookings: date format and separator guessed from the preamble, never sure', () => {
    const empty = DKB.split('\r\n').slice(0, 7).join('\r\n');
    const got = inferred(empty);
    expect(got.sample.rows).toBe(0);
    expect(got.dateFormat).toMatchObject({ value: 'dd.MM.yyyy', certainty: 'guess' });
    expect(got.dateFormat.reason).toMatch(/preamble's dates \(e.g. "01.01.2018"\)/);
    expect(got.decimalSeparator).toMatchObject({ value: ',', certainty: 'guess' });
    expect(got.mapping.amount).toMatchObject({ value: 'Betrag (EUR)', certainty: 'guess' });
    expect(got.mapping.bookingDate).toMatchObject({ value: 'Buchungstag', certainty: 'guess' });
  });

  it('a title padded to the width of the table is preamble, not the header', () => {
    const got = inferred(
      lines(
        'Umsätze Girokonto;;;',
        ';;;',
        'Datum;Betrag;Text;Saldo',
        '01.02.2026;-5,00;a;10,00',
        '02.02.2026;7,00;b;17,00',
      ),
    );
    expect(got.skipLines).toMatchObject({ value: 2, certainty: 'sure' });
    expect(got.header).toEqual(['Datum', 'Betrag', 'Text', 'Saldo']);
    expect(got.headerPattern?.value).toBe('^Datum;Betrag;');
  });

  it('the same DKB export in Windows-1252: the encoding is sure and the umlauts read right', () => {
    const got = inferred(Buffer.from(DKB, 'latin1'));
    expect(got.encoding).toMatchObject({ value: 'windows-1252', certainty: 'sure' });
    expect(got.header[3]).toBe('Auftraggeber / Begünstigter');
    expect(got.mapping.counterpartyName).toMatchObject({
      value: 'Auftraggeber / Begünstigter',
      certainty: 'sure',
    });
  });

  it('UTF-16 with a byte-order mark, and UTF-8 with one', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SPARKASSE, 'utf16le')]);
    expect(inferred(utf16).encoding).toMatchObject({ value: 'utf-16le', certainty: 'sure' });
    expect(inferred(utf16).delimiter.value).toBe(';');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SPARKASSE)]);
    expect(inferred(bom).encoding).toMatchObject({
      value: 'utf-8',
      certainty: 'sure',
      reason: 'UTF-8 byte-order mark',
    });
    expect(inferred(bom).header[0]).toBe('Auftragskonto');
  });

  it('an ASCII-only export: UTF-8 is a guess (every encoding reads it the same)', () => {
    const got = inferred(lines('Date,Amount', '2026-01-02,-5.00', '2026-01-03,7.50'));
    expect(got.encoding).toMatchObject({ value: 'utf-8', certainty: 'guess' });
  });

  it('"," with "." decimals and grouped thousands in quoted cells, ISO dates', () => {
    const got = inferred(
      lines(
        'Date,Description,Amount',
        '2026-01-02,Coffee,-4.50',
        '2026-01-15,Salary,"2,450.00"',
        '2026-01-20,Rent,"-1,200.00"',
      ),
    );
    expect(sureFormat(got)).toMatchObject({
      delimiter: ',',
      decimalSeparator: '.',
      thousands: ',',
      dateFormat: 'yyyy-MM-dd',
    });
  });

  it('two delimiters that split header and rows alike: a guess, both offered', () => {
    const got = inferred(lines('Datum;Name, Vorname', '01.02.2026;Müller, Hans', '02.02.2026;Schmidt, Eva'));
    expect(got.delimiter).toMatchObject({ value: ';', certainty: 'guess', candidates: [';', ','] });
  });

  it('unquoted decimal commas split every row in two under ",": the header left whole there decides for ";"', () => {
    const got = inferred(
      lines(
        'Buchungs-ID;Datum;Verwendungszweck;Umsatz;S/H',
        'A-1;02.02.2026;Miete;1.190,00;H',
        // A quoted cell over two lines: under "," its second line is one more row of two cells.
        'A-2;03.02.2026;"Toner, Papier\r\nLieferung 4711";84,50;S',
      ),
    );
    expect(got.delimiter).toMatchObject({ value: ';', certainty: 'sure' });
  });

  it('a balance line inside the table is no record: skipRowsMatching suggested, the ID column found without it', () => {
    const got = inferred(
      lines(
        'Buchungs-ID;Datum;Verwendungszweck;Umsatz;S/H',
        'A-1;02.02.2026;Miete;850,00;S',
        'A-2;03.02.2026;Lohn;2.450,00;H',
        ';;Endsaldo;1.600,00;H',
      ),
    );
    expect(got.skipRowsMatching).toMatchObject({ value: ['^;*Endsaldo'], certainty: 'guess' });
    expect(got.sample.rows).toBe(2);
    expect(got.identity.externalId).toMatchObject({ value: 'Buchungs-ID', certainty: 'guess' });
    expect(new RegExp(got.skipRowsMatching?.value?.[0] ?? '').test(';;Endsaldo;1.600,00;H')).toBe(true);
  });

  it('tab and "|" delimited exports', () => {
    expect(
      inferred(lines('Datum\tBetrag\tText', '01.02.2026\t-5,00\ta', '02.02.2026\t7,00\tb')).delimiter.value,
    ).toBe('\t');
    expect(
      inferred(lines('Datum|Betrag|Text', '01.02.2026|-5,00|a', '02.02.2026|7,00|b')).delimiter.value,
    ).toBe('|');
  });

  it('amounts that read as two different numbers ("1,234" under "," and ".") leave the decimal separator to ask', () => {
    const got = inferred(lines('Datum;Betrag', '01.02.2026;1,234', '02.02.2026;2,500'));
    expect(got.decimalSeparator).toMatchObject({ value: undefined, certainty: 'ask' });
    expect(got.decimalSeparator.candidates).toEqual([',', '.']);
    expect(got.mapping.amount?.certainty).not.toBe('sure');
  });

  it('whole-number amounts do not show the separator: "." is a guess', () => {
    const got = inferred(lines('Datum;Betrag', '01.02.2026;-5', '02.02.2026;7'));
    expect(got.decimalSeparator).toMatchObject({ value: '.', certainty: 'guess' });
  });

  it('footer lines after the rows are counted as such', () => {
    const got = inferred(
      lines('Datum;Betrag;Text', '01.02.2026;-5,00;a', '02.02.2026;7,00;b', 'Endsaldo;2,00'),
    );
    expect(got.skipFooterLines).toMatchObject({ value: 1, certainty: 'guess' });
    expect(got.skipLines.value).toBe(0);
  });

  it('bytes that are no text encoding init reads, and a file without a table, say why', () => {
    expect(inferCsv({ bytes: Buffer.from([0x41, 0x81, 0x3b, 0x42, 0x0a]), complete: true })).toMatchObject({
      ok: false,
    });
    expect(inferCsv({ bytes: Buffer.from('just one line of prose\n'), complete: true })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/no delimited table/),
    });
  });
});

describe('the sample is bounded', () => {
  it('reads at most the cap; a line the cap cuts is no row, and a UTF-8 character cut in two is no encoding error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-init-'));
    const file = join(dir, 'big.csv');
    const rows = Array.from({ length: 200 }, (_, i) => `0${(i % 9) + 1}.02.2026;-${i},50;Bücher ${i}`);
    writeFileSync(file, lines('Datum;Betrag;Verwendungszweck', ...rows));
    // 'ü' is two bytes in UTF-8: a cap inside it must not make the file Windows-1252.
    const text = lines('Datum;Betrag;Verwendungszweck', ...rows);
    const cut = Buffer.from(text).indexOf(Buffer.from('ü')) + 1;
    const sample = await readSample(file, cut + 400);
    expect(sample.complete).toBe(false);
    expect(sample.bytes.length).toBe(cut + 400);
    const result = inferCsv(sample);
    if (!result.ok) throw new Error(result.problem);
    expect(result.inference.encoding.value).toBe('utf-8');
    expect(result.inference.sample.complete).toBe(false);
    expect(result.inference.skipFooterLines.certainty).toBe('guess');
    const whole = await readSample(file);
    expect(whole.complete).toBe(true);
    const all = inferCsv(whole);
    expect(all.ok && all.inference.sample.rows).toBe(200);
    // Every row the capped sample holds is a whole one (its last cell is complete).
    expect(result.inference.sample.rows).toBeLessThan(200);
  });

  it('a sample cut inside a quoted cell that spans lines: that row is left out, the delimiter still found', () => {
    const text = lines(
      '"Datum";"Betrag";"Text"',
      '"01.02.2026";"-5,00";"a"',
      '"02.02.2026";"7,00";"b"',
      '"03.02.2026";"9,00";"first line',
    );
    const result = inferCsv({ bytes: Buffer.from(`${text}second line\r\n`), complete: false });
    if (!result.ok) throw new Error(result.problem);
    expect(result.inference.delimiter).toMatchObject({ value: ';', certainty: 'sure' });
    expect(result.inference.sample.rows).toBe(2);
  });

  it('at most SAMPLE_ROWS rows are looked at', () => {
    const rows = Array.from(
      { length: SAMPLE_ROWS + 20 },
      (_, i) => `2026-01-${String((i % 28) + 1).padStart(2, '0')},-${i}.50`,
    );
    const got = inferred(lines('Date,Amount', ...rows));
    expect(got.sample).toMatchObject({ rows: SAMPLE_ROWS, rowsCapped: true, complete: true });
  });

  it('a sample cut inside a UTF-8 character reads as UTF-8', () => {
    const bytes = Buffer.from('Datum;Betrag;Text\r\n01.02.2026;-5,00;Bü');
    const result = inferCsv({ bytes: bytes.subarray(0, bytes.length - 1), complete: false });
    expect(result.ok && result.inference.encoding.value).toBe('utf-8');
  });
});
