import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileIdentityStore } from '../../../src/in-process/identity-file-store.js';
import { syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 11 point 3: edits that do not change what a row means leave its derived identity alone.
 * One feed without an ID column is synced once; then each edit of the feed or its export is
 * synced into the same sandbox and must create nothing (the identity check is on, too: none of
 * these edits may stop the run).
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-identity-edits-'));

interface FeedOptions {
  separator?: string;
  dateFormat?: string;
  encoding?: string;
  bankAccount?: string;
}

function writeFeed(dir: string, options: FeedOptions = {}): string {
  const path = join(dir, 'feed.yaml');
  writeFileSync(
    path,
    `name: identity-edits
accountId: 1001
kind: transactions
source:
  path: "*.csv"
  format: csv
  delimiter: ";"
  encoding: ${options.encoding ?? 'utf-8'}
  decimalSeparator: ","
  dateFormat: ${options.dateFormat ?? 'dd.MM.yyyy'}
mapping:
  bookingDate: Buchungstag
  amount: Betrag
  purpose: { columns: [Buchungstext, Verwendungszweck], separator: ${JSON.stringify(options.separator ?? ' ')} }
  counterpartyName: Name
bankAccount:
  externalId: ${options.bankAccount ?? 'identity-edits'}
  accountName: Identity edits
  bankName: Testbank
`,
  );
  return path;
}

/** Text as it reads after its UTF-8 bytes were decoded as Windows-1252 ("Dübel" -> "DÃ¼bel"). */
const mojibake = (text: string) => new TextDecoder('windows-1252').decode(Buffer.from(text, 'utf8'));

let n = 0;
/** A folder with one export and its feed file; returns the feed file. */
function exportOf(csv: string | Uint8Array, options: FeedOptions = {}): string {
  const dir = join(work, `case-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'export.csv'), csv);
  return writeFeed(dir, options);
}

const HEADER = 'Buchungstag;Betrag;Buchungstext;Verwendungszweck;Name;Info';
const ROWS = [
  ['03.04.2018', '-1.234,50', 'LASTSCHRIFT', 'Miete April', 'Müller Hausverwaltung', 'gebucht'],
  ['05.04.2018', '-22,59', 'KARTENZAHLUNG', 'EDEKA Dübel', 'EDEKA', 'gebucht'],
  ['05.04.2018', '-3,00', 'KARTENZAHLUNG', 'Kantine', 'Kantine GmbH', 'gebucht'],
  ['05.04.2018', '-3,00', 'KARTENZAHLUNG', 'Kantine', 'Kantine GmbH', 'gebucht'],
  ['06.04.2018', '100,00', 'GUTSCHRIFT', 'Erstattung Straße', 'Jörg Weiß', 'gebucht'],
];
const csvOf = (header: string, rows: readonly (readonly string[])[]) =>
  `${[header, ...rows.map((r) => r.join(';'))].join('\n')}\n`;
const BASE = csvOf(HEADER, ROWS);

/** Each edit: the feed and export of the rerun, and how many of its rows are really new. */
const EDITS: { edit: string; feed: () => string; newRows?: number }[] = [
  { edit: 'unchanged rerun', feed: () => exportOf(BASE) },
  { edit: 'join separator " " -> " / "', feed: () => exportOf(BASE, { separator: ' / ' }) },
  {
    edit: 'extra whitespace inside and around text cells',
    feed: () =>
      exportOf(
        csvOf(
          HEADER,
          ROWS.map(
            ([d, a, t, v, name, i]) =>
              [d, a, `  ${t}`, `${v?.replace(' ', '   ')}\t`, ` ${name} `, i] as string[],
          ),
        ),
      ),
  },
  {
    edit: 'every cell quoted',
    feed: () =>
      exportOf(
        csvOf(
          HEADER,
          ROWS.map((r) => r.map((c) => `"${c}"`)),
        ),
      ),
  },
  {
    edit: 'column order reversed',
    feed: () =>
      exportOf(
        csvOf(
          HEADER.split(';').reverse().join(';'),
          ROWS.map((r) => [...r].reverse()),
        ),
      ),
  },
  {
    edit: 'unmapped column added',
    feed: () =>
      exportOf(
        csvOf(
          `${HEADER};Saldo`,
          ROWS.map((r, i) => [...r, `${1000 + i},00`]),
        ),
      ),
  },
  {
    edit: 'unmapped column removed',
    feed: () =>
      exportOf(
        csvOf(
          HEADER.replace(';Info', ''),
          ROWS.map((r) => r.slice(0, 5)),
        ),
      ),
  },
  {
    edit: 'number formatting (1.234,50 -> 1234,5; 100,00 -> 100)',
    feed: () =>
      exportOf(
        csvOf(
          HEADER,
          ROWS.map(([d, a, ...rest]) => [d, a?.replace('.', '').replace(/,?0+$/, ''), ...rest] as string[]),
        ),
      ),
  },
  {
    edit: 'date formatting (dd.MM.yyyy -> d.M.yy)',
    feed: () =>
      exportOf(
        csvOf(
          HEADER,
          ROWS.map(([d, ...rest]) => {
            const [day, month, year] = (d ?? '').split('.');
            return [`${Number(day)}.${Number(month)}.${year?.slice(2)}`, ...rest];
          }),
        ),
        { dateFormat: 'd.M.yy' },
      ),
  },
  {
    // erp-bridge itself does not decode wrongly (encodings are checked), but an export can
    // arrive with its text already garbled upstream and be repaired later.
    edit: 'mojibake in the export (its UTF-8 once decoded as windows-1252 upstream)',
    feed: () => exportOf(mojibake(BASE), { encoding: 'auto' }),
  },
  {
    edit: 'replacement characters in the export (a lossy conversion upstream)',
    feed: () => exportOf(BASE.replace(/[^ -~\r\n]/g, '\uFFFD'), { encoding: 'auto' }),
  },
  {
    edit: 'later overlapping export repeating the identical rows, plus one new row',
    feed: () =>
      exportOf(
        csvOf(HEADER, [
          ...ROWS.slice(2),
          ['07.04.2018', '-5,00', 'KARTENZAHLUNG', 'Kantine', 'Kantine GmbH', 'gebucht'],
        ]),
      ),
    newRows: 1,
  },
];

describe('derived identity survives edits that do not change what a row means', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  let identity: { store: FileIdentityStore; accept: boolean };
  /** The transactions of one target bank account (each test's own). */
  const ours = (bankAccount: string) => {
    const account = h.sandbox.runtime.state.accounts.get(1001);
    const bank = [...(account?.bankAccounts.values() ?? [])].find((b) => b.externalId === bankAccount);
    return bank ? (account?.transactions.get(bank.id) ?? []) : [];
  };
  beforeAll(async () => {
    h = await syncHarness();
    identity = { store: new FileIdentityStore(h.reportDir), accept: false };
  });
  afterAll(() => h.close());

  let stored = 0;
  it('syncs the export once', async () => {
    const first = await h.run(exportOf(BASE), false, undefined, { identity });
    expect(first.summary.counts).toMatchObject({ created: 5, rejected: 0, failed: 0 });
    stored = ours('identity-edits').length;
    expect(stored).toBe(5);
  });

  it.each(EDITS)('$edit: the rerun creates nothing new', async ({ feed, newRows = 0 }) => {
    const rerun = await h.run(feed(), false, undefined, { identity });
    expect(rerun.summary.stopReason).toBeUndefined();
    expect(rerun.summary.counts.created).toBe(newRows);
    expect(rerun.summary.counts).toMatchObject({ rejected: 0, failed: 0, updated: 0 });
    expect(rerun.summary.counts.skipped).toBe(rerun.outcomes.length - newRows);
    stored += newRows;
    const all = ours('identity-edits');
    expect(all).toHaveLength(stored);
    expect(new Set(all.map((t) => t.externalId)).size).toBe(all.length);
  });

  it('an encoding repair (an export garbled upstream, then repaired) creates nothing again', async () => {
    const options = { bankAccount: 'identity-repair' };
    const wrong = await h.run(exportOf(mojibake(BASE), options), false, undefined, {
      identity,
    });
    expect(wrong.summary.counts).toMatchObject({ created: 5, failed: 0, rejected: 0 });
    expect(ours('identity-repair').some((t) => t.counterpartyName?.includes('Ã¼'))).toBe(true);
    const repaired = await h.run(exportOf(BASE, options), false, undefined, { identity });
    expect(repaired.summary.counts).toMatchObject({ created: 0, skipped: 5, failed: 0, rejected: 0 });
    const all = ours('identity-repair');
    expect(all).toHaveLength(5);
    expect(new Set(all.map((t) => t.externalId)).size).toBe(5);
  });
});

describe('the demo Sparkasse export (issue 11: separator edit created every transaction twice)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it('reruns with the purpose separator " / " -> " " and with another encoding setting create nothing', async () => {
    const demo = readFileSync('config/feeds/demo/sparkasse.yaml', 'utf8').replace(
      'path: exports/sparkasse/*.csv',
      `path: ${JSON.stringify(resolve('config/feeds/demo/exports/sparkasse/*.csv'))}`,
    );
    const variant = (edit: (yaml: string) => string) => {
      const dir = join(work, `sparkasse-${n++}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'sparkasse.yaml'), edit(demo));
      return join(dir, 'sparkasse.yaml');
    };
    const identity = { identity: { store: new FileIdentityStore(h.reportDir), accept: false } };
    const first = await h.run(
      variant((y) => y),
      false,
      undefined,
      identity,
    );
    expect(first.summary.counts.created).toBe(12);
    for (const edit of [
      (y: string) => y.replace('separator: " / "', 'separator: " "'),
      (y: string) => y.replace('encoding: utf-8', 'encoding: auto'),
    ]) {
      const rerun = await h.run(variant(edit), false, undefined, identity);
      expect(rerun.summary.counts).toEqual({ created: 0, updated: 0, skipped: 13, rejected: 0, failed: 0 });
    }
    expect(h.transactions(1001)).toHaveLength(12);
  });
});
