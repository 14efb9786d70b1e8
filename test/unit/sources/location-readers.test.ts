import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { EncodingError } from '../../../src/sources/file-stop.js';
import { globMatcher } from '../../../src/sources/glob.js';
import { exportFile } from '../../../src/sources/locations/export-file.js';
import type { ByteRange, LocatedFile, Location } from '../../../src/sources/locations/location.js';
import { openRecords, recordsOf } from '../../../src/sources/open-records.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

/**
 * A location that is not the disk: files in memory, every read a range of them, in small pieces
 * (as a network stream comes). It proves the readers reach a file only through `Location`.
 */
function memoryLocation(files: Record<string, Buffer>) {
  const reads: Required<ByteRange>[] = [];
  const location: Location = {
    label: 'mem://exports',
    list: async (glob) => {
      const match = globMatcher(glob);
      return Object.keys(files)
        .filter(match)
        .sort()
        .map((path) => ({ path, size: files[path]?.length ?? 0, mtimeMs: 0 }));
    },
    names: async () => undefined,
    stat: async (path): Promise<LocatedFile | undefined> => {
      const bytes = files[path];
      return bytes && { path, size: bytes.length, mtimeMs: 0 };
    },
    read: (path, range = { start: 0 }) => {
      const bytes = files[path];
      if (!bytes) throw new Error(`no such file ${path}`);
      const end = Math.min(range.end ?? bytes.length, bytes.length);
      reads.push({ start: range.start, end });
      const pieces: Buffer[] = [];
      for (let at = range.start; at < end; at += 7) pieces.push(bytes.subarray(at, Math.min(at + 7, end)));
      return Readable.from(pieces);
    },
    move: async () => {
      throw new Error('not needed here');
    },
    remove: async () => {
      throw new Error('not needed here');
    },
    close: async () => {},
  };
  return { location, reads };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const csvFeed = Feed.parse({
  name: 'mem',
  accountId: 1,
  kind: 'transactions',
  source: { path: '/in/*.csv', format: 'csv', delimiter: ';', encoding: 'auto' },
  bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
  mapping: {
    externalId: 'ID',
    bookingDate: 'Date',
    amount: 'Amount',
    purpose: 'Text',
    currency: { const: 'EUR' },
  },
});

describe('readers on a location that is not the disk', () => {
  it('read a CSV through the location, name its records by label and path, and fingerprint its content', async () => {
    const bytes = Buffer.from('ID;Date;Amount;Text\nT1;2026-01-02;12.50;Müller\nT2;2026-01-03;-3.10;Weiß\n');
    const { location, reads } = memoryLocation({ '/in/bank-1.csv': bytes });
    const stream = openRecords(csvFeed, exportFile(location, '/in/bank-1.csv'));
    const outcomes = [];
    for await (const o of recordsOf(stream)) outcomes.push(o);
    expect(stream.file).toBe('mem://exports/in/bank-1.csv');
    expect(outcomes.map((o) => [o.kind, o.record.file, o.record.line])).toEqual([
      ['mapped', 'mem://exports/in/bank-1.csv', 2],
      ['mapped', 'mem://exports/in/bank-1.csv', 3],
    ]);
    expect(outcomes[0]).toMatchObject({ record: { payload: { purpose: 'Müller' } } });
    expect(await stream.sha256).toBe(sha256(bytes));
    expect(await stream.encoding).toMatchObject({ name: 'utf-8', chosenBy: 'auto' });
    // Two passes, each a read of the whole file: the encoding check, then the decode with its hash.
    expect(reads).toEqual([
      { start: 0, end: bytes.length },
      { start: 0, end: bytes.length },
    ]);
  });

  it('stop a file that cannot be decoded with an error naming its location, line and offset', async () => {
    const bytes = Buffer.concat([
      Buffer.from('ID;Date;Amount;Text\nT1;2026-01-02;1.00;M'),
      Buffer.from([0x81]),
      Buffer.from('\n'),
    ]);
    const { location } = memoryLocation({ '/in/bad.csv': bytes });
    const feed = Feed.parse({ ...csvFeed, source: { ...csvFeed.source, encoding: 'windows-1252' } });
    const stream = openRecords(feed, exportFile(location, '/in/bad.csv'));
    const error = await recordsOf(stream)
      .next()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(EncodingError);
    expect((error as Error).message).toMatch(
      /^mem:\/\/exports\/in\/bad\.csv: not valid Windows-1252 at line 2, byte offset 40 \(0x81\)/,
    );
    expect(await stream.sha256).toBe(sha256(bytes));
  });

  it('read an xlsx workbook by ranged reads of the location', async () => {
    const rows = [rowOf(1, ['ID', 'Date', 'Amount']), rowOf(2, ['T1', '2026-01-02', { n: '7.5' }])].join('');
    const workbook = xlsxOf({ sheets: [{ name: 'S', rows }] });
    const { location, reads } = memoryLocation({ '/in/book.xlsx': workbook });
    const feed = Feed.parse({
      name: 'mem-xlsx',
      accountId: 1,
      kind: 'transactions',
      source: { path: '/in/*.xlsx', format: 'xlsx' },
      bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
      mapping: { externalId: 'ID', bookingDate: 'Date', amount: 'Amount', currency: { const: 'EUR' } },
    });
    const stream = openRecords(feed, exportFile(location, '/in/book.xlsx'));
    const outcomes = [];
    for await (const o of recordsOf(stream)) outcomes.push(o);
    expect(outcomes.map((o) => [o.kind, o.record.file, o.record.line])).toEqual([
      ['mapped', 'mem://exports/in/book.xlsx', 2],
    ]);
    expect(await stream.sha256).toBe(sha256(workbook));
    // Besides the fingerprint's pass, yauzl reads the zip in parts: its directory, then each entry.
    expect(reads.length).toBeGreaterThan(2);
    expect(reads.some((r) => r.start > 0 && r.end <= workbook.length)).toBe(true);
  });
});
