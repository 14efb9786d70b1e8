import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 18, case 5: `K\xfc-1` and `K\xe4-1` (Windows-1252 "Kü-1", "Kä-1") in a feed declared
 * `utf-8` were both decoded to `K\uFFFD-1`: the first was created, the second booking (200.00)
 * "skipped — already in the service". Now the declared encoding is checked before any record is
 * read: the file stops with the encoding error, nothing is created or skipped.
 */
function feedWithIds(encoding: 'utf-8' | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-encoding-collision-'));
  mkdirSync(join(dir, 'exports'));
  const bytes = Buffer.concat([
    Buffer.from('ID;Datum;Betrag;Text\r\n'),
    Buffer.from('K'),
    Buffer.from([0xfc]),
    Buffer.from('-1;05.02.2026;100,00;erste Buchung\r\nK'),
    Buffer.from([0xe4]),
    Buffer.from('-1;05.02.2026;200,00;zweite Buchung\r\n'),
  ]);
  writeFileSync(join(dir, 'exports', 'bookings.csv'), bytes);
  const feedFile = join(dir, 'feed.yaml');
  writeFileSync(
    feedFile,
    [
      'name: encoding-collision',
      'accountId: 1001',
      'kind: transactions',
      'source:',
      '  path: exports/*.csv',
      '  format: csv',
      '  delimiter: ";"',
      ...(encoding ? [`  encoding: ${encoding}`] : []),
      '  decimalSeparator: ","',
      '  dateFormat: dd.MM.yyyy',
      'mapping:',
      '  externalId: ID',
      '  bookingDate: Datum',
      '  amount: Betrag',
      '  purpose: Text',
      'bankAccount:',
      '  externalId: collision-main',
      '  accountName: Main',
      '  bankName: Bank',
      '',
    ].join('\n'),
  );
  return feedFile;
}

let h: SyncHarness;
afterEach(() => h?.close());

describe('an encoding replacement never collides ids (issue 18 case 5)', () => {
  it('declared utf-8: the file stops with the encoding error; nothing is created or skipped; exit 2', async () => {
    h = await syncHarness();
    const feedFile = feedWithIds('utf-8');
    for (const dryRun of [true, false]) {
      const run = await h.run(feedFile, dryRun);
      expect(run.summary.state).toBe('stopped');
      expect(run.summary.stopReason).toMatchObject({ code: 'ENCODING_INVALID', exitCode: 2 });
      expect(run.summary.stopReason?.message).toContain(
        'bookings.csv: not valid UTF-8 at line 2, byte offset 23 (0xFC): the file looks like Windows-1252; set `encoding: windows-1252` or `auto`',
      );
      expect(run.outcomes.filter((o) => o.outcome === 'skipped' || o.outcome === 'created')).toEqual([]);
      expect(run.summary.wouldSend ?? 0).toBe(0);
      // The file is listed, with nothing read from it and no encoding (it could not be decoded).
      expect(run.summary.files).toHaveLength(1);
      expect(run.summary.files[0]).toMatchObject({
        records: 0,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(run.summary.files[0]?.encoding).toBeUndefined();
      expect(exitCodeOfRun(run)).toBe(2);
    }
    expect(h.requests('createTransactionsBulk')).toEqual({});
    expect(h.transactions(1001)).toHaveLength(0);
  });

  it('with the default (auto) both bookings are created under their own ids', async () => {
    h = await syncHarness();
    const run = await h.run(feedWithIds(undefined));
    expect(run.summary.counts).toMatchObject({ created: 2, skipped: 0, rejected: 0, failed: 0 });
    expect(
      h
        .transactions(1001)
        .map((t) => [t.externalId, t.amount])
        .sort(),
    ).toEqual([
      ['Kä-1', 200],
      ['Kü-1', 100],
    ]);
  });
});
