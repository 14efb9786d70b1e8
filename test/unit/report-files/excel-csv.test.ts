import { describe, expect, it } from 'vitest';
import {
  EXCEL_CSV_BOM,
  excelCsvAmount,
  excelCsvHeader,
  excelCsvText,
  outcomeExcelCsvLine,
} from '../../../src/report-files/excel-csv.js';
import { OUTCOME_COLUMNS } from '../../../src/report-files/file-sink.js';

describe('the German-Excel CSV', () => {
  it('starts with a UTF-8 byte order mark and the header, separated by ; and ended by CRLF', () => {
    const header = excelCsvHeader(OUTCOME_COLUMNS);
    expect(header.startsWith(EXCEL_CSV_BOM)).toBe(true);
    expect(Buffer.from(header, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(header).toBe(`\uFEFFfile;line;externalId;outcome;serviceId;code;message;amount;runId;key\r\n`);
  });

  it('writes an outcome: ; between cells, the amount with a decimal comma, umlauts as UTF-8, CRLF', () => {
    const line = outcomeExcelCsvLine(
      {
        file: 'umsätze.csv',
        line: 7,
        externalId: 'TX-1',
        outcome: 'rejected',
        serviceId: 42,
        code: 'AMOUNT_INVALID',
        message: 'Betrag fehlt; bitte prüfen',
        amount: '-1234.56',
      },
      'run-1',
    );
    expect(line).toBe(
      'umsätze.csv;7;TX-1;rejected;42;AMOUNT_INVALID;"Betrag fehlt; bitte prüfen";-1234,56;run-1;\r\n',
    );
    expect(Buffer.from(line, 'utf8').includes(Buffer.from('ä', 'utf8'))).toBe(true);
  });

  it('quotes cells holding ;, ", CR or LF, doubling the "', () => {
    expect(excelCsvText('a;b')).toBe('"a;b"');
    expect(excelCsvText('say "hi"')).toBe('"say ""hi"""');
    expect(excelCsvText('two\nlines')).toBe('"two\nlines"');
    expect(excelCsvText('cr\rhere')).toBe('"cr\rhere"');
    // A comma is no separator here: left as it is.
    expect(excelCsvText('Müller, Söhne')).toBe('Müller, Söhne');
    expect(excelCsvText(undefined)).toBe('');
  });

  it('neutralises cells Excel would run as formulas (OWASP: a leading apostrophe, quoted)', () => {
    expect(excelCsvText('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(excelCsvText('+1+2')).toBe(`"'+1+2"`);
    expect(excelCsvText('-2+3')).toBe(`"'-2+3"`);
    expect(excelCsvText('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(excelCsvText('\tcmd')).toBe(`"'\tcmd"`);
    expect(excelCsvText('\rcmd')).toBe(`"'\rcmd"`);
    // The same in the externalId or message of a whole line.
    const line = outcomeExcelCsvLine({ file: 'f.csv', line: 2, externalId: '=1+1', outcome: 'created' }, 'r');
    expect(line).toBe(`f.csv;2;"'=1+1";created;;;;;r;\r\n`);
  });

  it("keeps the amount column's minus sign a number, and writes a non-decimal amount as neutralised text", () => {
    expect(excelCsvAmount('-22.59')).toBe('-22,59');
    expect(excelCsvAmount('1000')).toBe('1000');
    expect(excelCsvAmount('0.10')).toBe('0,10');
    expect(excelCsvAmount(undefined)).toBe('');
    expect(excelCsvAmount('-1+1')).toBe(`"'-1+1"`);
  });
});
