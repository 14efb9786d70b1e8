import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../../support/cli-run.js';
import { germanCsvFeedText } from '../../support/feed-text.js';

/**
 * `erp-bridge check` as users run it: a child process with no PARTNER_* variable at all (runCli
 * passes only PATH and HOME), on exports and feeds this test writes.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-check-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HEADER = 'Buchungs-ID;Buchungsdatum;Betrag;Verwendungszweck';

/** A folder with one CSV export (`;`, decimal comma, dd.MM.yyyy) and a feed reading it. */
function csvFeed(name: string, rows: readonly string[], mapping?: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'exports'), { recursive: true });
  writeFileSync(join(dir, 'exports', 'bank.csv'), `${[HEADER, ...rows].join('\n')}\n`);
  const feed = join(dir, 'feed.yaml');
  writeFileSync(
    feed,
    germanCsvFeedText(
      name,
      mapping ??
        'externalId: Buchungs-ID\n  bookingDate: Buchungsdatum\n  amount: Betrag\n  currency: { const: EUR }\n  purpose: Verwendungszweck',
      'externalId: check-giro\n  accountName: Giro\n  bankName: Musterbank\n  accountCurrency: EUR\n  accountType: CHECKING',
    ),
  );
  return feed;
}

const CLEAN = [
  'B-1;02.02.2026;1.190,00;Rechnung 1',
  'B-2;03.02.2026;-84,50;Strom',
  'B-3;28.02.2026;0,01;Zins',
];

const check = (args: readonly string[]) => runCli(['check', ...args], {});

describe('erp-bridge check', () => {
  it('records that name no currency are totalled in their bank account’s currency', async () => {
    const feed = csvFeed(
      'pinned',
      CLEAN,
      'externalId: Buchungs-ID\n  bookingDate: Buchungsdatum\n  amount: Betrag\n  purpose: Verwendungszweck',
    );
    const ran = await check([feed, '--json']);
    const out = JSON.parse(ran.stdout) as {
      feeds: { check: { totals: { wouldSend: { amounts: Record<string, string> } } } }[];
    };
    expect(out.feeds[0]?.check.totals.wouldSend.amounts).toEqual({ EUR: '1105.51' });
  });

  it('a clean CSV feed: exit 0, per field counts, identities, totals and the first records as payloads', async () => {
    const ran = await check([csvFeed('clean', CLEAN), '--show', '2']);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/bank\.csv: 3 rows/);
    expect(ran.stdout).toMatch(/bookingDate\s+3 values, 0 empty, 0 rejected/);
    expect(ran.stdout).toMatch(/purpose\s+3 values, 0 empty, 0 rejected/);
    expect(ran.stdout).toContain('identities: source ID column "Buchungs-ID"; 0 of 3 derived');
    // Exact decimals: 1190.00 - 84.50 + 0.01.
    expect(ran.stdout).toContain('control totals: 3 would be sent, EUR 1105.51');
    expect(ran.stdout).toContain('dates: bookingDate 2026-02-02 .. 2026-02-28');
    const shown = ran.stdout.split('\n').filter((line) => /bank\.csv:\d+ \{/.test(line));
    expect(shown).toHaveLength(2);
    const [first] = shown;
    expect(first).toMatch(/bank\.csv:2 /);
    expect(JSON.parse(first?.slice(first.indexOf('{')) ?? '')).toEqual({
      externalId: 'B-1',
      bookingDate: '2026-02-02',
      amount: 1190,
      currency: 'EUR',
      purpose: 'Rechnung 1',
    });
  });

  it('rejected rows: exit 1, each field with its reasons and lines; a repeated ID as sync finds it', async () => {
    const feed = csvFeed('rejects', [
      ...CLEAN,
      'B-4;31.02.2026;5,00;kein Datum',
      'B-5;04.02.2026;zwölf;kein Betrag',
      'B-1;05.02.2026;7,00;andere Zeile, gleiche ID',
    ]);
    const ran = await check([feed, '--show', '0']);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/bookingDate\s+3 values, 0 empty, 1 rejected/);
    expect(ran.stdout).toMatch(
      /bank\.csv:5: bookingDate \(column "Buchungsdatum"\): "31\.02\.2026" is not a calendar date/,
    );
    expect(ran.stdout).toMatch(/amount\s+3 values, 0 empty, 1 rejected/);
    expect(ran.stdout).toMatch(/bank\.csv:6: amount \(column "Betrag"\): "zwölf"/);
    expect(ran.stdout).toContain('rejected DUPLICATE_IN_SOURCE: 1');
    expect(ran.stdout).toMatch(/bank\.csv:7: externalId "B-1" already appears at .*bank\.csv:2/);
    expect(ran.stdout).toContain(
      'repeated within the run: 0 skipped (same content), 1 rejected (other content)',
    );
    expect(ran.stdout).not.toMatch(/records as the service would receive them/);
  });

  it('a mapping that does not fit the header: exit 2 naming the missing columns; sync suggests check', async () => {
    const feed = csvFeed(
      'layout',
      CLEAN,
      'externalId: Buchungs-ID\n  bookingDate: Datum\n  amount: Umsatz\n  currency: { const: EUR }',
    );
    const ran = await check([feed]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toMatch(/cannot be read \(exit 2, SOURCE_LAYOUT\)/);
    expect(ran.stdout).toContain('mapping.bookingDate: column "Datum" is not in the header');
    expect(ran.stdout).toContain('mapping.amount: column "Umsatz" is not in the header');

    const synced = await runCli(
      ['sync', '--sandbox', feed, '--report-dir', join(work, 'layout-reports')],
      {},
    );
    expect(synced.code).toBe(2);
    expect(synced.stdout).toContain('without a service: erp-bridge check ');
    expect(synced.stdout).toContain('layout/feed.yaml');
  });

  it('an export not in the encoding the feed declares: exit 2 naming the line', async () => {
    const feed = csvFeed('encoding', CLEAN);
    writeFileSync(
      feed,
      readFileSync(feed, 'utf8').replace(
        '  dateFormat: dd.MM.yyyy',
        '  dateFormat: dd.MM.yyyy\n  encoding: utf-8',
      ),
    );
    // "Müller" in Windows-1252: 0xFC alone is no UTF-8.
    writeFileSync(
      join(work, 'encoding', 'exports', 'bank.csv'),
      Buffer.concat([
        Buffer.from(`${HEADER}\nB-1;02.02.2026;1,00;M`),
        Buffer.from([0xfc]),
        Buffer.from('ller\n'),
      ]),
    );
    const ran = await check([feed]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toMatch(/cannot be read \(exit 2, ENCODING_INVALID\): .*line 2/);
  });

  it('a folder that is not there: exit 2, said as sync says it', async () => {
    const feed = csvFeed('missing', CLEAN);
    rmSync(join(work, 'missing', 'exports'), { recursive: true });
    const ran = await check([feed]);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toMatch(/cannot be read \(exit 2, [A-Z_]+\): .*does not exist/);
  });

  it('a statement format (MT940): its default mapping, derived IDs, the statement dates and total', async () => {
    const dir = join(work, 'mt940');
    mkdirSync(join(dir, 'exports'), { recursive: true });
    copyFileSync(
      join(repoRoot, 'config/feeds/demo/exports/mt940/mt940-volksbank-2026-02.txt'),
      join(dir, 'exports', 'statement.txt'),
    );
    const feed = join(dir, 'feed.yaml');
    writeFileSync(
      feed,
      `name: check-mt940
accountId: 1001
kind: transactions
source:
  path: exports/*.txt
  format: mt940
bankAccount:
  externalId: volksbank-giro
  accountName: Volksbank Girokonto
  bankName: Volksbank
  accountCurrency: EUR
  accountType: CHECKING
`,
    );
    const ran = await check([feed, '--show', '1']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/statement\.txt: 9 rows/);
    expect(ran.stdout).toMatch(/amount\s+9 values, 0 empty, 0 rejected/);
    expect(ran.stdout).toContain('9 of 9 derived');
    expect(ran.stdout).toContain('control totals: 9 would be sent, EUR 161.1');
    expect(ran.stdout).toContain('dates: bookingDate 2026-02-09 .. 2026-02-18');
  });

  it('several feeds: one that cannot be read is its failure alone, the other is checked; exit the worst', async () => {
    const missing = csvFeed('second-missing', CLEAN);
    rmSync(join(work, 'second-missing', 'exports'), { recursive: true });
    const broken = join(work, 'broken.yaml');
    writeFileSync(broken, 'name: broken\nkind: nothing\n');
    const ran = await check([broken, missing, csvFeed('second-clean', CLEAN)]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('broken.yaml: invalid feed');
    expect(ran.stdout).toMatch(/second-missing .*\n(.*\n)* {2}exit 2\n/);
    expect(ran.stdout).toMatch(/second-clean .*\n(.*\n)*.*3 would be sent.*\n(.*\n)* {2}exit 0\n/);
  });

  it('a usage error (--show -1): exit 2 before anything is read', async () => {
    const ran = await check([csvFeed('usage', CLEAN), '--show', '-1']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('expected a whole number >= 0');
  });

  it('--json: every feed with its exit code and the whole exit code', async () => {
    const ran = await check([
      '--json',
      csvFeed('json-clean', CLEAN),
      csvFeed('json-rejects', [...CLEAN, 'B-9;x;1,00;y']),
    ]);
    expect(ran.code).toBe(1);
    const out = JSON.parse(ran.stdout) as {
      exitCode: number;
      feeds: {
        exitCode: number;
        check: { totals: { wouldSend: { records: number; amounts: Record<string, string> } } };
      }[];
    };
    expect(out.exitCode).toBe(1);
    expect(out.feeds.map((f) => f.exitCode)).toEqual([0, 1]);
    expect(out.feeds[0]?.check.totals.wouldSend).toEqual({ records: 3, amounts: { EUR: '1105.51' } });
  });
});
