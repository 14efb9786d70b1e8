import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { fixtureWriter, readUntilStop } from '../../support/source-files.js';

/**
 * A delimiter the file does not use stops the file naming the header, the delimiter in force and
 * the one the file seems to use (issue 26, point 4), read end to end through openRecords.
 */
const write = fixtureWriter('delimiter');

function feed(delimiter: string) {
  return Feed.parse({
    name: 'delimiter',
    accountId: 1001,
    kind: 'transactions',
    source: { path: 'x', format: 'csv', delimiter, decimalSeparator: ',', dateFormat: 'dd.MM.yyyy' },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping: { externalId: 'ID', bookingDate: 'Datum', amount: 'Betrag', purpose: 'Text' },
  });
}

const read = (delimiter: string, text: string) => readUntilStop(feed(delimiter), write(text));

describe('a delimiter the file does not use', () => {
  it('a one-column header that a tab splits: stops before any row, naming the tab', async () => {
    const { outcomes, stop } = await read(';', 'ID\tDatum\tBetrag\tText\nA\t05.01.2026\t1,00\tx\n');
    expect(outcomes).toEqual([]);
    expect(stop?.code).toBe('SOURCE_LAYOUT');
    expect(stop?.message).toContain('"ID\\tDatum\\tBetrag\\tText"');
    expect(stop?.message).toContain('delimiter ";"');
    expect(stop?.message).toContain('"\\t" (tab)');
  });

  it('a one-column header that another delimiter splits into the mapped columns (quoted or not): named', async () => {
    for (const header of ['ID,Datum,Betrag,Text', '"ID","Datum","Betrag","Text"']) {
      const { outcomes, stop } = await read(';', `${header}\nA,05.01.2026,1.00,x\n`);
      expect(outcomes).toEqual([]);
      expect(stop?.code).toBe('SOURCE_LAYOUT');
      expect(stop?.message).toContain('the file seems to use "," (it splits the header into 4 columns)');
    }
  });

  it('a one-column line that a comma splits into no mapped column (prose, some other file): no delimiter hint', async () => {
    // The mapping's own check then names the missing columns (test/integration/sync/export-header).
    for (const line of ['Dear customer, your statement is attached.', 'Nr,Wert,Kommentar']) {
      const { outcomes, stop } = await read(';', `${line}\n`);
      expect(stop).toBeUndefined();
      expect(outcomes).toEqual([]);
    }
  });

  it('most of the first rows have more fields than the header: stops, none of them handed on', async () => {
    // A "," file whose amounts carry an unquoted decimal comma: each row one field too many.
    const rows = Array.from({ length: 12 }, (_, i) => `R${i},05.01.2026,-12,50,Miete`);
    const { outcomes, stop } = await read(',', ['ID,Datum,Betrag,Text', ...rows].join('\n'));
    expect(outcomes).toEqual([]);
    expect(stop?.code).toBe('SOURCE_LAYOUT');
    expect(stop?.message).toContain('10 of the first 10 rows');
    expect(stop?.message).toContain('"ID,Datum,Betrag,Text"');
    expect(stop?.message).toContain('delimiter ","');
  });

  it('a few rows with extra fields among fitting ones are each rejected, the others read', async () => {
    const rows = ['A,05.01.2026,-12,50,Miete', 'B,05.01.2026,-12,Miete', 'C,06.01.2026,-1,Strom'];
    const { outcomes, stop } = await read(',', ['ID,Datum,Betrag,Text', ...rows].join('\n'));
    expect(stop).toBeUndefined();
    expect(outcomes.map((o) => o.kind)).toEqual(['rejected', 'mapped', 'mapped']);
  });

  it('a header with the delimiter in force reads as before, also with fewer than ten rows', async () => {
    const { outcomes, stop } = await read(';', 'ID;Datum;Betrag;Text\nA;05.01.2026;1,00;x\n');
    expect(stop).toBeUndefined();
    expect(outcomes.map((o) => o.kind)).toEqual(['mapped']);
  });
});
