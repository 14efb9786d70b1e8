import { readFileSync } from 'node:fs';
import type { RecordKind } from '../../../src/kinds/registry.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';

/** A step of the sandbox's fault script, as a test writes it. */
type ScriptStep = NonNullable<FaultConfigInput['script']>[number];

import type { Outcome } from '../../../src/sync/outcome.js';
import type { RunState } from '../../../src/sync/report/summary.js';
import type { RunSettings } from '../../support/runner-adapters.js';
import { unbalancedDemoCamt } from '../../support/statement-feeds.js';
import { plain, split, statement, TARGET } from '../adversarial/booking-shapes.js';

/** One run of a scenario: the faults the service has during it, edits of the exports before it. */
export interface ScenarioRun {
  faults?: FaultConfigInput;
  /** Export files (name → content) written before this run. */
  edit?: Record<string, string>;
  /** The feed's YAML from this run on, when it changed. */
  feed?: string[];
  dryRun?: boolean;
  /** The faults the sandbox injected during the run, by kind (both adapters alike). */
  injected?: Record<string, number>;
  /** What both adapters must report (absolute, so two adapters broken alike still fail). */
  counts: Partial<Record<Outcome, number>>;
  state: RunState;
  stop?: { code: string; exitCode: 1 | 2 | 3 };
}

/**
 * A scenario: a feed (its YAML after `name:`; the source's path is relative to the feed file, or
 * absolute with `{dir}`, the folder of the adapter's copy of the exports) and its exports, run one
 * or more times through each adapter on a fresh service.
 */
export interface Scenario {
  name: string;
  feed: string[];
  files: Record<string, string>;
  settings?: RunSettings;
  runs: ScenarioRun[];
}

const ACCOUNT = 'accountId: 1001';
const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

const GERMAN_CSV =
  'source: {path: export.csv, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy}';
const TX_MAPPING = 'mapping: {externalId: ID, bookingDate: Datum, amount: Betrag, purpose: Text}';
const TX_TARGET = 'bankAccount: {externalId: conform-giro, accountName: Konformität, bankName: Testbank}';
const TX_FEED = [ACCOUNT, 'kind: transactions', GERMAN_CSV, TX_MAPPING, TX_TARGET];
/** A transactions feed of an export without an ID column (derived IDs), its purpose mapped as given. */
const DERIVED_TX_FEED = (purpose: string) => [
  ...TX_FEED.filter((l) => l !== TX_MAPPING),
  `mapping: {bookingDate: Datum, amount: Betrag, ${purpose}}`,
];
/** The same feed, its exports moved to processed/ or failed/ once the run is stored. */
const MOVED_TX_FEED = TX_FEED.map((l) =>
  l === GERMAN_CSV ? GERMAN_CSV.replace('}', ', afterRun: move}') : l,
);
/** Three bookings of a German bank CSV. */
const TX_CSV = csv(
  'ID;Datum;Betrag;Text',
  'TX-1;02.03.2026;-12,50;Miete',
  'TX-2;03.03.2026;1200,00;Gehalt',
  'TX-3;04.03.2026;-3,10;Kaffee',
);

const INVOICE_FEED = [
  ACCOUNT,
  'kind: invoices',
  'mode: upsert',
  'source: {path: invoices.jsonl, format: jsonl}',
  'mapping: {externalId: id, invoiceType: {const: SALES_INVOICE}, invoiceNumber: number, contactName: customer, totalGrossAmount: total}',
];
const invoice = (i: number, total: string) =>
  JSON.stringify({ id: `INV-${i}`, number: `R-${i}`, customer: `Kunde ${i}`, total });
const INVOICES = `${[invoice(1, '100.00'), invoice(2, '200.00'), invoice(3, '300.00')].join('\n')}\n`;

/**
 * A kind's plain CSV export, run twice: created, then found and skipped (plans, replace mode: set
 * again, nothing doubled). Accounts are the partner's own: their feed names no account.
 */
function csvOfKind(name: string, kind: RecordKind, mapping: string, lines: string[]): Scenario {
  const records = lines.length - 1;
  const rerun = kind === 'plans' ? 'created' : 'skipped';
  return {
    name,
    feed: [
      ...(kind === 'accounts' ? [] : [ACCOUNT]),
      `kind: ${kind}`,
      'source: {path: export.csv, format: csv, dateFormat: yyyy-MM-dd}',
      mapping,
    ],
    files: { 'export.csv': csv(...lines) },
    runs: [
      { counts: { created: records, failed: 0, rejected: 0 }, state: 'completed' },
      { counts: { [rerun]: records, failed: 0, rejected: 0 }, state: 'completed' },
    ],
  };
}

export const TRANSACTIONS = { feed: TX_FEED, files: { 'export.csv': TX_CSV } };
const INVOICES_EXPORT = { feed: INVOICE_FEED, files: { 'invoices.jsonl': INVOICES } };

/** One run of three records under a scripted fault that hits it `times` (1): all created once. */
function survives(
  name: string,
  source: Pick<Scenario, 'feed' | 'files'>,
  fault: ScriptStep,
  settings?: RunSettings,
): Scenario {
  return {
    name,
    ...source,
    ...(settings ? { settings } : {}),
    runs: [
      {
        faults: { script: [fault] },
        injected: { [fault.fault]: fault.times ?? 1 },
        counts: { created: 3, failed: 0 },
        state: 'completed',
      },
    ],
  };
}

const BULK_TX = 'createTransactionsBulk' as const;
const BULK_INV = 'createInvoicesBulk' as const;

export const PLANS = 'plans: monthly values; a rerun sets them again (replace), nothing doubled';

export const AFTER_CARE_FAILED =
  'stop: an account the service does not have (ACCOUNT_NOT_FOUND, exit 2), every record failed; afterRun: move';

export const ACCOUNT_BY_EXTERNAL_ID = "a feed naming its account by externalId (the seed's 1001 is `demo`)";

/** A scenario that has no run on one side: its own test, not in SCENARIOS. */
export const NO_EXPORT = 'a feed whose glob matches no export';

export const SCENARIOS: Scenario[] = [
  {
    name: 'transactions from a German CSV: a row with an impossible date, a pending row left out; a rerun skips',
    feed: [...TX_FEED, 'exclude: [{column: Info, equals: vorgemerkt}]'],
    files: {
      'export.csv': csv(
        'ID;Datum;Betrag;Text;Info',
        'TX-1;02.03.2026;-12,50;Miete;gebucht',
        'TX-2;31.02.2026;-5,00;Falsches Datum;gebucht',
        'TX-3;03.03.2026;1200,00;Gehalt;gebucht',
        'TX-4;04.03.2026;-7,25;Karte;vorgemerkt',
        'TX-5;05.03.2026;-3,10;Kaffee;gebucht',
      ),
    },
    runs: [
      { counts: { created: 3, rejected: 1, skipped: 1, failed: 0 }, state: 'completed_with_errors' },
      { counts: { created: 0, rejected: 1, skipped: 4, failed: 0 }, state: 'completed_with_errors' },
    ],
  },
  {
    name: 'invoices upserted from JSON Lines: a changed invoice is updated, the others skipped',
    feed: INVOICE_FEED,
    files: { 'invoices.jsonl': INVOICES },
    runs: [
      { counts: { created: 3, failed: 0, rejected: 0 }, state: 'completed' },
      {
        edit: {
          'invoices.jsonl': `${[invoice(1, '100.00'), invoice(2, '250.00'), invoice(3, '300.00')].join('\n')}\n`,
        },
        counts: { updated: 1, skipped: 2, created: 0 },
        state: 'completed',
      },
    ],
  },
  csvOfKind(
    PLANS,
    'plans',
    'mapping: {externalId: id, name: name, amount: amount, period: {const: MONTHLY}, date: month}',
    ['id,name,amount,month', 'P-1,Miete,-1000,2026-04-01', 'P-2,Umsatz,5000.50,2026-05-01'],
  ),
  csvOfKind(
    'bank accounts with reference balances; a rerun skips',
    'bank-accounts',
    'mapping: {externalId: id, accountName: name, bankName: bank, balanceReference: balance, balanceDate: date}',
    [
      'id,name,bank,balance,date',
      'B-1,Giro,Bank 1,1500.25,2026-03-01',
      'B-2,Tagesgeld,Bank 2,20000,2026-03-01',
    ],
  ),
  csvOfKind(
    'customer accounts (partner scope) with their admins; a rerun skips',
    'accounts',
    'mapping: {externalId: id, companyName: company, adminExternalId: {const: admin}, adminEmail: email, adminFirstName: {const: Ada}, adminLastName: last}',
    ['id,company,email,last', 'T-1,Eins GmbH,t1@example.test,Admin', 'T-2,Zwei AG,t2@example.test,Admin'],
  ),
  csvOfKind(
    'users of an account; a rerun skips',
    'users',
    'mapping: {externalId: id, email: email, firstName: first, lastName: last}',
    ['id,email,first,last', 'U-1,u1@example.test,Uma,Eins', 'U-2,u2@example.test,Udo,Zwei'],
  ),
  csvOfKind(
    'a category tree by path, children before their parent; a rerun skips',
    'categories',
    'mapping: {path: path, type: {const: EXPENSE_OPERATIONAL}}',
    ['path', 'Konform/Kind 1', 'Konform/Kind 2', 'Konform'],
  ),
  {
    name: 'a camt.053 statement that does not add up: entries created, the closing balance applied, a warning',
    feed: [ACCOUNT, 'kind: transactions', 'source: {path: "*.xml", format: camt}', 'bankAccounts: auto'],
    files: { 'day.xml': unbalancedDemoCamt() },
    runs: [
      { counts: { created: 7, failed: 0 }, state: 'completed' },
      { counts: { skipped: 7, created: 0 }, state: 'completed' },
    ],
  },
  {
    name: 'an MT940 file of two accounts without bank references: routed by account, derived IDs; a rerun skips',
    feed: [ACCOUNT, 'kind: transactions', 'source: {path: "*.sta", format: mt940}', 'bankAccounts: auto'],
    files: {
      'two-accounts.sta': readFileSync(
        new URL('../../fixtures/routing/two-accounts.sta', import.meta.url),
        'utf8',
      ),
    },
    runs: [
      { counts: { created: 3, failed: 0, rejected: 0 }, state: 'completed' },
      { counts: { skipped: 3, created: 0 }, state: 'completed' },
    ],
  },
  {
    name: 'camt bookings in another shape than the service holds them: compared across runs, rejected when they differ, skipped when they agree',
    feed: [ACCOUNT, 'kind: transactions', 'source: {path: "*.xml", format: camt}', TARGET],
    // R-1 as the parts of its batch, R-3 as one entry; then each in the other shape.
    files: { 'day.xml': statement('S-1', split, { ...plain, ref: 'R-3' }) },
    runs: [
      { counts: { created: 3, failed: 0, rejected: 0 }, state: 'completed' },
      {
        edit: {
          'day.xml': statement(
            'S-2',
            { ...plain, amount: '11.00' },
            { ...split, ref: 'R-3', date: '2026-03-03' },
          ),
        },
        dryRun: true,
        counts: { created: 0, skipped: 0, rejected: 3, failed: 0 },
        state: 'completed_with_errors',
      },
      { counts: { created: 0, skipped: 0, rejected: 3, failed: 0 }, state: 'completed_with_errors' },
      {
        edit: { 'day.xml': statement('S-3', plain, { ...split, ref: 'R-3' }) },
        counts: { created: 0, skipped: 3, rejected: 0, failed: 0 },
        state: 'completed',
      },
    ],
  },
  {
    name: 'stop: a feed without an ID column whose identity settings changed (IDENTITY_CHANGED, exit 2) creates nothing again',
    feed: DERIVED_TX_FEED('purpose: {columns: [Text, Info]}'),
    files: {
      'export.csv': csv(
        'Datum;Betrag;Text;Info',
        '02.03.2026;-12,50;Miete;März',
        '03.03.2026;1200,00;Gehalt;März',
      ),
    },
    runs: [
      { counts: { created: 2 }, state: 'completed' },
      {
        feed: DERIVED_TX_FEED('purpose: {columns: [Text]}'),
        counts: { created: 0, failed: 2 },
        state: 'stopped',
        stop: { code: 'IDENTITY_CHANGED', exitCode: 2 },
      },
    ],
  },
  {
    name: 'a dry run predicts (one record already there), writes nothing; the real run then creates the rest',
    feed: INVOICE_FEED,
    files: { 'invoices.jsonl': `${invoice(1, '100.00')}\n` },
    runs: [
      { counts: { created: 1 }, state: 'completed' },
      {
        edit: { 'invoices.jsonl': INVOICES },
        dryRun: true,
        counts: { created: 0, skipped: 1, failed: 0 },
        state: 'completed',
      },
      { counts: { created: 2, skipped: 1 }, state: 'completed' },
    ],
  },
  {
    name: ACCOUNT_BY_EXTERNAL_ID,
    feed: TX_FEED.map((l) => (l === ACCOUNT ? 'accountExternalId: demo' : l)),
    files: { 'export.csv': TX_CSV },
    runs: [{ counts: { created: 3, failed: 0 }, state: 'completed' }],
  },
  {
    name: 'after-care: a clean run moves its export to processed/',
    feed: MOVED_TX_FEED,
    files: { 'export.csv': TX_CSV },
    runs: [{ counts: { created: 3 }, state: 'completed' }],
  },
  {
    name: 'duplicates in the source: an exact repeat is skipped, a different record under the same ID rejected',
    feed: TX_FEED,
    files: {
      'export.csv': csv(
        'ID;Datum;Betrag;Text',
        'TX-1;02.03.2026;-12,50;Miete',
        'TX-2;03.03.2026;1200,00;Gehalt',
        'TX-1;02.03.2026;-12,50;Miete',
        'TX-2;03.03.2026;1300,00;Gehalt korrigiert',
      ),
    },
    runs: [{ counts: { created: 2, skipped: 1, rejected: 1 }, state: 'completed_with_errors' }],
  },
  survives('fault: the bulk create commits, then answers 500: re-checked, created once', TRANSACTIONS, {
    op: BULK_TX,
    fault: 'commit-then-500',
  }),
  {
    name: 'fault: 500s past the retries fail the chunk (ambiguous); the rerun creates it once',
    feed: TX_FEED,
    files: { 'export.csv': TX_CSV },
    runs: [
      {
        faults: { script: [{ op: BULK_TX, fault: '500', times: 4 }] },
        injected: { '500': 4 },
        counts: { created: 0, failed: 3 },
        state: 'completed_with_errors',
      },
      { counts: { created: 3, failed: 0 }, state: 'completed' },
    ],
  },
  survives('fault: 429 with Retry-After on the bulk create: waited, nothing lost', INVOICES_EXPORT, {
    op: BULK_INV,
    fault: '429',
    times: 2,
    retryAfterSeconds: 1,
  }),
  // Real time: the sandbox commits 2.5 s after the request came, the client gave up after 1 s and
  // waits out the in-flight bound (2 s more) before it looks: no invoice twice.
  survives(
    'fault: an invoice bulk create that commits after the client timed out: confirmed, never resent',
    INVOICES_EXPORT,
    { op: BULK_INV, fault: 'delay', delayMs: 2_500 },
    { client: { headersTimeoutMs: 1_000 }, realTime: true },
  ),
  {
    name: 'stop: a mapping the header contradicts stops the run (SOURCE_LAYOUT, exit 2), nothing sent; afterRun: move',
    feed: MOVED_TX_FEED,
    files: { 'export.csv': csv('ID;Datum;Summe;Text', 'TX-1;02.03.2026;-12,50;Miete') },
    runs: [{ counts: { created: 0 }, state: 'stopped', stop: { code: 'SOURCE_LAYOUT', exitCode: 2 } }],
  },
  {
    name: AFTER_CARE_FAILED,
    feed: MOVED_TX_FEED.map((l) => (l === ACCOUNT ? 'accountId: 4242' : l)),
    files: { 'export.csv': TX_CSV },
    runs: [
      {
        counts: { created: 0, failed: 3 },
        state: 'stopped',
        stop: { code: 'ACCOUNT_NOT_FOUND', exitCode: 2 },
      },
    ],
  },
];

/**
 * The exports on an SFTP server (OpenSSH on loopback, reading the adapter's folder in place):
 * `{sftp}` is the location's YAML, known once the server runs.
 */
export const REMOTE_SCENARIOS: Scenario[] = [
  {
    name: 'a remote location (SFTP): read in place, moved to processed/ there once the run is stored',
    feed: [
      ...TX_FEED.filter((l) => l !== GERMAN_CSV),
      'source: {path: "{dir}/export.csv", format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy, location: {sftp}, arrival: immediate, afterRun: move}',
    ],
    files: { 'export.csv': TX_CSV },
    runs: [{ counts: { created: 3, failed: 0 }, state: 'completed' }],
  },
];
