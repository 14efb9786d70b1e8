import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { Feed } from '../../../src/config/feed.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import { withReadProgress } from '../../../src/in-process/read-progress.js';
import { positionOf, SOURCE_FORMATS, Source } from '../../../src/sources/formats/registry.js';
import { openRecords, recordsOf } from '../../../src/sources/open-records.js';
import { fixtureWriter } from '../../support/source-files.js';

const write = fixtureWriter('formats');

const JSONL_FEED = `
name: shop-invoices
accountId: 1001
kind: invoices
source:
  path: exports/*.jsonl
  format: jsonl
mapping:
  externalId: id
  invoiceType: { const: SALES_INVOICE }
  invoiceNumber: number
  contactName: customer
  totalGrossAmount: total
  invoiceDate: date
`;

function problems(text: string): string {
  try {
    parseFeed(text, '/feeds/shop.yaml');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const feedOf = (source: Record<string, unknown>) =>
  Feed.parse({
    name: 'f',
    accountId: 1,
    kind: 'transactions',
    source: { path: 'x', ...source },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping: { externalId: 'id', bookingDate: 'date', amount: 'amount' },
  });

describe('the source-format registry', () => {
  it('files each format under its own `format` value, with a position unit and a docs line', () => {
    for (const [name, format] of Object.entries(SOURCE_FORMATS)) {
      expect(format.schema.shape.format.value).toBe(name);
      expect(format.docs.length).toBeGreaterThan(20);
      expect(['line', 'row', 'entry']).toContain(format.position);
    }
    expect(positionOf('csv')).toBe('line');
    expect(positionOf('jsonl')).toBe('line');
  });

  it('is what docs/feeds.md lists: each format with its docs line and position unit', () => {
    const feedsDoc = readFileSync(new URL('../../../docs/feeds.md', import.meta.url), 'utf8');
    const lines = feedsDoc.split('\n');
    const formatRow = lines.find((line) => line.startsWith('| `source.format` |')) ?? '';
    expect(formatRow.split('|')[2]?.trim()).toBe(
      Object.keys(SOURCE_FORMATS)
        .map((name) => `\`${name}\``)
        .join(', '),
    );
    for (const [name, format] of Object.entries(SOURCE_FORMATS))
      expect(lines).toContain(`| \`${name}\` | ${format.docs} | ${format.position} |`);
  });

  it('gives each format only its own keys, with their defaults', () => {
    expect(Source.parse({ path: 'x', format: 'jsonl' })).toEqual({
      path: 'x',
      format: 'jsonl',
      encoding: 'auto',
      decimalSeparator: '.',
      dateFormat: 'yyyy-MM-dd',
      maxRowBytes: 1024 * 1024,
    });
    expect(Source.parse({ path: 'x', format: 'camt' })).toMatchObject({ maxEntryElements: 200_000 });
    expect(Source.parse({ path: 'x', format: 'csv' })).toMatchObject({
      delimiter: ',',
      quote: '"',
      skipLines: 0,
      skipRowsMatching: [],
      skipFooterLines: 0,
      maxRowBytes: 1024 * 1024,
    });
  });

  it('refuses a csv key on a jsonl feed at load time, naming the file and the key', () => {
    expect(parseFeed(JSONL_FEED, '/feeds/shop.yaml').feed.source.format).toBe('jsonl');
    const message = problems(JSONL_FEED.replace('format: jsonl', 'format: jsonl\n  delimiter: ";"'));
    expect(message.split('\n')).toEqual([
      '/feeds/shop.yaml: invalid feed',
      '  - source: Unrecognized key: "delimiter" (delimiter)',
    ]);
    expect(
      problems(JSONL_FEED.replace('format: jsonl', 'format: jsonl\n  skipLines: 2\n  headerPattern: "^id"')),
    ).toContain('source: Unrecognized keys: "skipLines", "headerPattern" (skipLines, headerPattern)');
  });

  it('names the formats there are when `format` is missing or unknown', () => {
    const names = Object.keys(SOURCE_FORMATS).map((name) => JSON.stringify(name));
    expect(names.slice(0, 2)).toEqual(['"csv"', '"jsonl"']);
    const expected = `source.format: Invalid option: expected one of ${names.join('|')}`;
    expect(problems(JSONL_FEED.replace('format: jsonl', 'format: xml'))).toContain(expected);
    expect(problems(JSONL_FEED.replace('  format: jsonl\n', ''))).toContain(expected);
  });
});

describe('bytes read (progress)', () => {
  async function readWatching(feed: Feed, path: string) {
    const stream = openRecords(feed, path);
    const seen: number[] = [stream.bytesRead()];
    let records = 0;
    for await (const batch of stream.batches) {
      records += batch.length;
      seen.push(stream.bytesRead());
    }
    return { records, seen, end: stream.bytesRead() };
  }

  it("count the file's bytes, not decoded characters, for every format", async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => `K${i};2026-02-0${(i % 9) + 1};${i},50;Dübel`);
    const text = `id;date;amount;text\r\n${rows.join('\r\n')}\r\n`;
    const utf16 = write(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]));
    const csv = await readWatching(feedOf({ format: 'csv', delimiter: ';' }), utf16);
    expect(csv.records).toBe(3_000);
    expect(csv.seen[0]).toBe(0);
    expect(csv.end).toBe(2 + 2 * text.length);
    // Read a chunk at a time: batches come out while the file is still being read.
    expect(csv.seen.filter((bytes) => bytes > 0 && bytes < csv.end).length).toBeGreaterThan(0);
    expect(csv.seen).toEqual([...csv.seen].sort((a, b) => a - b));

    const lines = Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: `J${i}`, text: 'Dübel' }));
    const jsonl = write(`${lines.join('\n')}\n`, 'jsonl');
    const read = await readWatching(feedOf({ format: 'jsonl' }), jsonl);
    expect(read.records).toBe(100);
    expect(read.end).toBe(Buffer.byteLength(`${lines.join('\n')}\n`));
  });

  it('reach the progress listener once per batch, adding up to the file size', async () => {
    const path = write('id;date;amount\r\nA;2026-01-01;1\r\nB;2026-01-02;2\r\nEndsaldo;;3\r\n');
    const deltas: { records: number; bytes: number }[] = [];
    const open = withReadProgress(openRecords, (delta) => deltas.push(delta));
    const feed = feedOf({ format: 'csv', delimiter: ';', skipFooterLines: 1 });
    let outcomes = 0;
    for await (const _ of recordsOf(open(feed, path))) outcomes++;
    expect(outcomes).toBe(2);
    expect(deltas.every((d) => d.records === 0 && d.bytes > 0)).toBe(true);
    expect(deltas.reduce((sum, d) => sum + d.bytes, 0)).toBe(readFileSync(path).length);
  });
});
