import { describe, expect, it } from 'vitest';
import { inferFeed } from '../../../src/init/feed-inference.js';
import { sampledExport as sample } from '../../support/memory-export.js';

describe('inferFeed gives a delimited export in the one shape the YAML writer reads', () => {
  it("lists the csv source keys in the feed's order, with the mapping, identity and notes", async () => {
    const result = await inferFeed(
      sample(
        'Buchungstag;Betrag;Verwendungszweck\n02.02.2026;-12,50;Miete\n03.02.2026;2.480,00;Gehalt\n04.02.2026;-3,10;Kantine\n',
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { inference } = result;
    expect(inference.format.value).toBe('csv');
    expect(inference.source.map(([key]) => key)).toEqual([
      'encoding',
      'delimiter',
      'quote',
      'skipLines',
      'skipFooterLines',
      'decimalSeparator',
      'dateFormat',
    ]);
    const source = Object.fromEntries(inference.source.map(([key, setting]) => [key, setting.value]));
    expect(source).toMatchObject({
      delimiter: ';',
      decimalSeparator: ',',
      dateFormat: 'dd.MM.yyyy',
      skipLines: 0,
    });
    expect(inference.mapping.bookingDate?.value).toBe('Buchungstag');
    expect(inference.mapping.amount?.value).toBe('Betrag');
    // Only the formats as the cells write the year (dd.MM.yy reads "02.02.2026" too: no choice).
    expect(inference.notes).toContain('column "Buchungstag": dates fit dd.MM.yyyy');
  });

  it('names the two-digit-year format for cells written so', async () => {
    const result = await inferFeed(sample('Buchungstag;Betrag\n02.02.26;-12,50\n13.02.26;2,00\n'));
    expect(result.ok && result.inference.notes).toContain('column "Buchungstag": dates fit dd.MM.yy');
  });

  it('passes on what is not a table, with its reason', async () => {
    const result = await inferFeed(sample(Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x00])));
    expect(result.ok).toBe(false);
  });
});
