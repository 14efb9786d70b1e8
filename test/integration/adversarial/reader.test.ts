import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../src/cli/commands/sync-run.js';
import { createLogger } from '../../../src/logging/logger.js';
import { germanCsvFeedText } from '../../support/feed-text.js';
import { syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 18, cases 3, 4, 6, 7 and 8, and issue 11 point 5, end to end: a sync against the sandbox
 * reads hostile exports without losing or flipping a record.
 */

const HEADER = 'ID;Datum;Betrag;Text';

/** A feed folder with its exports; returns the feed file. */
function feedWith(
  name: string,
  files: Record<string, string>,
  mapping = 'externalId: ID\n  bookingDate: Datum\n  amount: Betrag\n  purpose: Text',
) {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-adv-reader-${name}-`));
  mkdirSync(join(dir, 'exports'));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'exports', file), text);
  const feed = join(dir, 'feed.yaml');
  writeFileSync(
    feed,
    germanCsvFeedText(
      `adv-${name}`,
      mapping,
      'externalId: adversarial-reader\n  accountName: Adversarial reader\n  bankName: Testbank',
    ),
  );
  return { feed, dir };
}

const row = (prefix: string, i: number, amount = `${i},00`) =>
  `${prefix}${i};05.02.2026;${amount};Zahlung ${i}`;

describe('adversarial exports (issue 18 cases 3, 4, 6, 7, 8; issue 11 point 5)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  const logs: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    });
    h = await syncHarness({}, { logger: createLogger({ level: 'warn', destination: sink }) });
  });
  afterAll(() => h.close());

  it('case 3: a CRLF file with LF-only and CR-only lines creates one record per line', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => row('MIX', i + 1));
    const text = `${HEADER}\r\n${rows.map((r, i) => r + (i % 7 === 3 ? '\n' : i % 7 === 5 ? '\r' : '\r\n')).join('')}`;
    const { feed } = feedWith('mixed', { 'mixed.csv': text });
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 20, rejected: 0, failed: 0 });
    const stored = h.transactions(1001).filter((t) => t.externalId?.startsWith('MIX'));
    expect(stored.map((t) => t.purpose).sort()).toEqual(rows.map((_, i) => `Zahlung ${i + 1}`).sort());
  });

  it('case 4: a quote opened on line 6 of 100 rejects that line alone; lines 7-101 are created', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => row('Q', i + 1));
    rows[4] = 'Q5;05.02.2026;5,00;"Zahlung 5 ohne Ende';
    const { feed } = feedWith('quote', { 'quote.csv': `${HEADER}\r\n${rows.join('\r\n')}\r\n` });
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 99, rejected: 1, failed: 0 });
    expect(run.outcomes).toHaveLength(100);
    const rejected = run.outcomes.filter((o) => o.outcome === 'rejected');
    expect(rejected).toEqual([
      expect.objectContaining({
        line: 6,
        code: 'UNREADABLE_ROW',
        message: expect.stringMatching(/never closed/),
      }),
    ]);
    expect(run.outcomes.map((o) => o.line).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
  });

  it('case 6: malformed signs are rejected quoting the cell, never read as +5', async () => {
    const text = [
      HEADER,
      row('S', 1, '--5,00'),
      row('S', 2, '- 5,00 -'),
      row('S', 3, '+-5'),
      row('S', 4, '5,00-'),
    ].join('\n');
    const { feed } = feedWith('signs', { 'signs.csv': text });
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 1, rejected: 3 });
    const byLine = new Map(run.outcomes.map((o) => [o.line, o]));
    expect(byLine.get(2)?.message).toContain('"--5,00" has more than one sign');
    expect(byLine.get(3)?.message).toContain('"- 5,00 -" has more than one sign');
    expect(byLine.get(4)?.message).toContain('"+-5" has more than one sign');
    expect(h.transactions(1001).find((t) => t.externalId === 'S4')?.amount).toBe(-5);
    expect(h.transactions(1001).filter((t) => ['S1', 'S2', 'S3'].includes(t.externalId ?? ''))).toEqual([]);
  });

  it('case 7: a 50 MB cell is rejected alone; the other records of its chunk are created', async () => {
    const big = `"${'x'.repeat(50 * 1024 * 1024)}"`;
    const text = [HEADER, row('BIG', 1), `BIG2;05.02.2026;2,00;${big}`, row('BIG', 3)].join('\n');
    const { feed } = feedWith('big', { 'big.csv': text });
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 2, rejected: 1, failed: 0 });
    expect(run.outcomes.find((o) => o.outcome === 'rejected')).toMatchObject({
      line: 3,
      code: 'UNREADABLE_ROW',
      message: expect.stringMatching(/longer than maxRowBytes \(1048576 bytes\)/),
    });
    expect(run.outcomes.find((o) => o.outcome === 'rejected')?.file).toMatch(/big\.csv$/);
  });

  it('case 8: a symlinked export is read and a symlink loop is reported, not followed', async () => {
    const store = mkdtempSync(join(tmpdir(), 'erp-bridge-adv-store-'));
    writeFileSync(join(store, 'linked.csv'), [HEADER, row('LNK', 1), row('LNK', 2)].join('\n'));
    const { feed, dir } = feedWith('symlink', {});
    symlinkSync(join(store, 'linked.csv'), join(dir, 'exports', 'linked.csv'));
    symlinkSync(join(dir, 'exports', 'loop-b.csv'), join(dir, 'exports', 'loop-a.csv'));
    symlinkSync(join(dir, 'exports', 'loop-a.csv'), join(dir, 'exports', 'loop-b.csv'));
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 2 });
    expect(logs.join('')).toMatch(/loop-a\.csv.*symbolic link loop|symbolic link loop.*loop-a\.csv/);
  });

  it('issue 11.5: a mapped column missing from the header stops the file with exit 2, naming column and header', async () => {
    const text = ['ID;Datum;Wert;Text', row('MC', 1), row('MC', 2)].join('\n');
    const { feed } = feedWith('missing', { 'missing.csv': text });
    const run = await h.run(feed);
    expect(exitCodeOf([run])).toBe(2);
    expect(run.summary.stopReason).toMatchObject({
      code: 'SOURCE_LAYOUT',
      exitCode: 2,
      message: expect.stringContaining(
        'mapping.amount: column "Betrag" is not in the header; the header has: ID, Datum, Wert, Text',
      ),
    });
    expect(run.summary.stopReason?.message).toContain('missing.csv');
    expect(run.summary.counts.created).toBe(0);
  });

  it('issue 11.5: short and long rows are rejected naming the columns; an empty required cell names its column', async () => {
    const text = [
      HEADER,
      'SH1;05.02.2026',
      'SH2;05.02.2026;2,00;Text;xyz',
      'SH3;05.02.2026;;Text',
      row('SH', 4),
      'SH5;05.02.2026;5,00;Text;',
    ].join('\n');
    const { feed } = feedWith('shape', { 'shape.csv': text });
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 2, rejected: 3 });
    const byLine = new Map(run.outcomes.map((o) => [o.line, o.message]));
    expect(byLine.get(2)).toBe('row has 2 fields, the header has 4: missing "Betrag", "Text"');
    expect(byLine.get(3)).toBe('row has 5 fields, the header has 4: extra field 5 "xyz"');
    expect(byLine.get(4)).toBe('amount (column "Betrag"): required, but the cell is empty');
  });
});
