import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENCY_CODES } from '../../src/contract/currencies.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import { type SyncHarness, syncHarness } from '../support/sync-harness.js';
import { SHARED_SAMPLES } from './shared-samples.js';

/**
 * Issue 25 point 8: every statement file of ../shared/samples/peer (other parsers' MT940 and camt
 * tests: wolph/mt940, jejik-mt940, genkgo/camt) synced through the sandbox and compared with its
 * entry in peer/expected.json, read here at test time (nothing of it is copied into the
 * repository): per entry its outcome at the line of its `:61:` / `<Ntry>`, the signed amount,
 * booking date and currency of what the service stores; the count and sum; pending entries left
 * out. Where erp-bridge's documented behaviour refuses what a peer parser accepts, the entry is
 * expected refused at its line (REFUSED below, each with the rule); where the two differ on
 * purpose for another reason, DIFFERENCES says so.
 */

const PEER = join(SHARED_SAMPLES, 'peer');
const EXPECTED = join(PEER, 'expected.json');
const ACCOUNT = 1001;

interface ExpectedEntry {
  cents: number;
  currency: string | null;
  bookingDate: string | null;
  valueDate: string | null;
  pending: boolean;
}
interface ExpectedFile {
  file: string;
  format: 'mt940' | 'camt';
  version?: string;
  entries: ExpectedEntry[];
  notes: string[];
}

/** A documented refusal of an entry a peer parser accepts: its code and why (docs/reading-exports.md). */
interface Refusal {
  code: string;
  why: string;
}

/** The documented refusals that follow from an expected entry itself. */
function refusalOf(file: ExpectedFile, entry: ExpectedEntry): Refusal | undefined {
  if (entry.currency !== null && !(CURRENCY_CODES as readonly string[]).includes(entry.currency))
    return { code: 'INVALID_RECORD', why: `currency ${entry.currency} is not one the service takes` };
  if (file.format === 'camt' && entry.bookingDate === null && !entry.pending)
    return { code: 'INVALID_RECORD', why: 'a camt entry without any booking date' };
  return undefined;
}

/**
 * Deliberate differences from a peer's parse that expected.json does not show, by file and entry
 * (1-based, in file order): the entry is refused at its line, with the reason.
 */
const CUT_SHORT =
  'the file ends in this entry, with no closing balance (:62F:) and no end (-) after it: a file cut short ends like that, so erp-bridge refuses the entry rather than send a purpose or amount that may be incomplete (docs/reading-exports.md, issue 25 point 3)';

const DIFFERENCES: ReadonlyMap<string, ReadonlyMap<number, Refusal>> = new Map([
  [
    'wolph-mt940/betterplace/empty_entry_date.sta',
    new Map([
      [
        1,
        {
          code: 'UNREADABLE_ROW',
          why: 'no field of its statement names a currency (no :60F:, :62F:, :64: nor :34F:): wolph leaves it unknown, erp-bridge never sends an entry in an assumed currency (docs/reading-exports.md)',
        },
      ],
    ]),
  ],
  ['wolph-mt940/cmxl/statement_details.sta', new Map([[1, { code: 'UNREADABLE_ROW', why: CUT_SHORT }]])],
  ['wolph-mt940/self-provided/gv_codes.sta', new Map([[2, { code: 'UNREADABLE_ROW', why: CUT_SHORT }]])],
  ['wolph-mt940/self-provided/multiline.sta', new Map([[2, { code: 'UNREADABLE_ROW', why: CUT_SHORT }]])],
  [
    'wolph-mt940/self-provided/transaction_details_wrapped.sta',
    new Map([
      [
        1,
        {
          code: 'UNREADABLE_ROW',
          why: 'its value date is 30 February (160230): wolph guesses 29 February, erp-bridge refuses a date that is no calendar date (docs/reading-exports.md)',
        },
      ],
    ]),
  ],
  [
    'wolph-mt940/jejik/knab.sta',
    new Map([
      [
        3,
        {
          code: 'UNREADABLE_ROW',
          why: 'its amount C500 has no decimal comma, which MT940 requires: erp-bridge refuses it rather than guess (docs/reading-exports.md)',
        },
      ],
    ]),
  ],
  [
    'wolph-mt940/cmxl/mt940.sta',
    new Map([
      [
        13,
        {
          code: 'DUPLICATE_IN_SOURCE',
          why: "the bank reference //55555 of entry 12 again, in the same statement, on another amount: a bank's reference is unique for its account, so the second is refused naming the first (docs/identity.md)",
        },
      ],
    ]),
  ],
]);

/** Files erp-bridge stops as a whole (documented), with the stop code and why. */
function fileStopOf(file: ExpectedFile): Refusal | undefined {
  if (
    file.format === 'camt' &&
    file.version !== undefined &&
    !/^camt\.05[234]\.001\.0[2-8]$/.test(file.version)
  )
    return { code: 'CAMT_UNSUPPORTED', why: `${file.version} is outside the documented .001.02 to .001.08` };
  return undefined;
}

/** The line (1-based) of each entry's start in the file: `:61:` for MT940, `<Ntry>` for camt. */
function entryLines(path: string, format: 'mt940' | 'camt'): number[] {
  const lines = readFileSync(path, 'latin1').split(/\r\n|\r|\n/);
  const start = format === 'mt940' ? /^\s*:61:/ : /<(?:\w+:)?Ntry[\s>]/;
  return lines.flatMap((line, i) => (start.test(line) ? [i + 1] : []));
}

/** Every statement file of the peer folder (its expectation files, README and licences left out). */
function peerStatementFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'licenses') walk(path);
      } else if (/\.(sta|txt|xml)$/.test(name)) out.push(relative(PEER, path));
    }
  };
  walk(PEER);
  return out.sort();
}

/** A currency the service takes, else EUR (the entries in another one are refused anyway). */
const taken = (currency: string | null | undefined) =>
  currency && (CURRENCY_CODES as readonly string[]).includes(currency) ? currency : 'EUR';

/** An MT940 file's statement accounts (`:25:`), each with the currency of the balance after it. */
function mt940Accounts(path: string): Map<string, string> {
  const accounts = new Map<string, string>();
  let account: string | undefined;
  for (const line of readFileSync(path, 'latin1').split(/\r\n|\r|\n/)) {
    if (line.startsWith(':25:')) account = line.slice(4).trim();
    const balance = /^:6[02][FM]:[CD]\d{6}([A-Z]{3})/.exec(line);
    if (account !== undefined && balance && !accounts.has(account)) accounts.set(account, taken(balance[1]));
  }
  return accounts;
}

/**
 * A feed of one peer file, no mapping section. A file of several MT940 statement accounts (`:25:`)
 * gives each its own target in its own currency (a bank reference is the bank's for one account: an
 * internal transfer carries the same one on both sides); any other file goes to one target that
 * takes every statement of it.
 */
function feedOf(file: ExpectedFile): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-peer-'));
  const name = basename(file.file);
  copyFileSync(join(PEER, file.file), join(dir, name));
  const target = (id: string, currency: string) =>
    `{externalId: ${id}, accountName: ${id}, bankName: Bank, accountCurrency: ${currency}}`;
  const accounts = file.format === 'mt940' ? mt940Accounts(join(PEER, file.file)) : new Map<string, string>();
  const targets =
    accounts.size < 2
      ? [`bankAccount: ${target('peer', taken(file.entries.find((e) => e.currency !== null)?.currency))}`]
      : [
          'bankAccounts:',
          ...[...accounts].map(
            ([account, currency], i) => `  ${JSON.stringify(account)}: ${target(`peer-${i + 1}`, currency)}`,
          ),
        ];
  const feed = [
    'name: peer',
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(name)}, format: ${file.format}, includePending: false}`,
    ...targets,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

const cents = (amount: string | number | undefined) => Math.round(Number(amount) * 100);

const expectedFiles: ExpectedFile[] = existsSync(EXPECTED)
  ? (JSON.parse(readFileSync(EXPECTED, 'utf8')) as { files: ExpectedFile[] }).files
  : [];

describe.skipIf(expectedFiles.length === 0)(`the peer suite (${EXPECTED})`, () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
    // A file of a dozen statement accounts: the sandbox's default subscription allows five.
    const account = h.sandbox.runtime.state.accounts.get(ACCOUNT);
    if (account) account.subscriptionInformation.maxAllowedBankAccounts = 50;
  });
  afterEach(() => h.close());

  it('expected.json names every statement file of the peer folder, once', () => {
    expect(expectedFiles.map((f) => f.file).sort()).toEqual(peerStatementFiles());
  });

  for (const file of expectedFiles) {
    it(file.file, async () => {
      const run = await h.run(feedOf(file));
      const stop = fileStopOf(file);
      if (stop) {
        expect(run.summary.stopReason, stop.why).toMatchObject({ code: stop.code, exitCode: 2 });
        expect(h.transactions(ACCOUNT)).toEqual([]);
        return;
      }
      expect(run.summary.stopReason).toBeUndefined();
      const lines = entryLines(join(PEER, file.file), file.format);
      expect(lines, 'one entry start per expected entry').toHaveLength(file.entries.length);

      const byLine = new Map<number, RecordOutcome[]>();
      for (const o of run.outcomes) byLine.set(o.line, [...(byLine.get(o.line) ?? []), o]);
      // Nothing beside the entries: no text outside any field, no record at another line.
      expect([...byLine.keys()].sort((a, b) => a - b)).toEqual(lines);

      const stored = new Map(h.transactions(ACCOUNT).map((t) => [t.id, t]));
      let sum = 0;
      let created = 0;
      file.entries.forEach((entry, i) => {
        const line = lines[i] as number;
        const [found, ...more] = byLine.get(line) ?? [];
        // Shown whole when it differs: its code and message say why.
        const got = (want: Partial<RecordOutcome>) =>
          expect(
            found && { outcome: found.outcome, code: found.code },
            `${at}: expected ${JSON.stringify(want)}, got ${JSON.stringify(found && { ...found, file: basename(found.file) })}`,
          ).toEqual({ code: undefined, ...want });
        const at = `${file.file}, entry ${i + 1} (line ${line})`;
        expect(more, `${at}: one outcome`).toEqual([]);
        const refusal = DIFFERENCES.get(file.file)?.get(i + 1) ?? refusalOf(file, entry);
        if (entry.pending) {
          got({ outcome: 'skipped', code: 'EXCLUDED' });
          expect(cents(found?.amount), `${at}: its amount in the skipped total`).toBe(entry.cents);
        } else if (refusal) {
          got({ outcome: 'rejected', code: refusal.code });
        } else {
          got({ outcome: 'created' });
          const transaction = stored.get(found?.serviceId as number);
          expect(cents(transaction?.amount), `${at}: signed amount`).toBe(entry.cents);
          expect(transaction?.bookingDate, `${at}: booking date`).toBe(entry.bookingDate);
          if (entry.currency !== null) expect(transaction?.currency, `${at}: currency`).toBe(entry.currency);
          sum += entry.cents;
          created++;
        }
      });
      expect(run.summary.counts.created, 'count').toBe(created);
      expect(cents(run.summary.controlTotals.created.amount), 'sum').toBe(sum);
    });
  }
});
