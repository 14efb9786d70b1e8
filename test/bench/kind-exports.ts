/**
 * Generated CSV exports of every record kind for the kinds benchmark (kinds.bench.ts), written as a
 * stream and deterministic, each with its feed YAML beside it: what an ERP or an HR or accounting
 * system would export for the kind, in German conventions (UTF-8, `;`, CRLF, decimal comma,
 * dd.MM.yyyy), every record new to the sandbox so that a sync creates each one. Transactions are the
 * sync benchmark's German bank export (german-export.ts, Windows-1252). Each feed writes to the
 * benchmark seed's one customer account (BENCH_ACCOUNT_ID), the accounts feed to the partner.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordKind } from '../../src/kinds/registry.js';
import { COUNTERPARTIES, type CsvLayout, GERMAN_EXPORT_CSV, writeGermanExport } from './german-export.js';
import { textWriter } from './text-writer.js';

export const BENCH_ACCOUNT_ID = 1001;

export interface KindExport {
  feedFile: string;
  csvFile: string;
  rows: number;
  bytes: number;
  layout: CsvLayout;
  /** Records csv-parse counts (a closing balance line is one). */
  parsedRecords: number;
}

/** The layout of the exports written here (transactions: the German bank export's). */
const KIND_CSV = { encoding: 'utf-8', delimiter: ';', quote: '"', fromLine: 1 } as const satisfies CsvLayout;
const ROWS_PER_WRITE = 10_000;
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2025, 0, 1);

const two = (n: number) => String(n).padStart(2, '0');
const pad = (i: number) => String(i + 1).padStart(8, '0');
/** "05.02.2025", `days` after 2025-01-01. */
function germanDate(days: number): string {
  const d = new Date(FIRST_DAY + days * DAY_MS);
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;
}
const germanAmount = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${two(Math.abs(cents) % 100)}`;
const amountOf = (i: number) => 100 + ((i * 7919) % 2_500_000);

/** The German export's counterparties, the public bodies left out. */
export const CUSTOMERS = COUNTERPARTIES.slice(0, 6);
const FIRST_NAMES = ['Anna', 'Jörg', 'Büşra', 'Lena', 'Matthias', 'Sören'];
const LAST_NAMES = ['Schäfer', 'Wagner', 'Yılmaz', 'Hoffmann', 'Weiß', 'Krüger'];
/** Categories of the sandbox's default tree, each unique by name (a plan names one). */
const PLAN_CATEGORIES = ['Sales', 'Rent', 'Salaries', 'Software', 'Equipment', 'Loans'];

/** A kind's export: the columns, one row's cells, and the feed's lines after `source:`'s path. */
interface KindShape {
  header: readonly string[];
  row(i: number): readonly string[];
  /** The feed's scope line (accountId) and mapping, and other keys. */
  feed: string;
}

const ACCOUNT = `accountId: ${BENCH_ACCOUNT_ID}\n`;

/** An ERP's open-items list (the demo xlsx feed's columns): the invoices export here and the xlsx reader's. */
export const OPEN_ITEMS_COLUMNS = [
  'Beleg-Nr.',
  'Kunde',
  'Brutto',
  'Offen',
  'Status',
  'Belegdatum',
  'Fällig am',
];
export const OPEN_ITEMS_MAPPING = `mapping:
  externalId: Beleg-Nr.
  invoiceType: { const: SALES_INVOICE }
  invoiceNumber: Beleg-Nr.
  contactName: Kunde
  totalGrossAmount: Brutto
  openAmount: Offen
  invoiceStatus: { column: Status, map: { offen: OPEN, bezahlt: PAID, teilbezahlt: PARTIALLY_PAID } }
  invoiceDate: Belegdatum
  dueDate: Fällig am
`;

const SHAPES: { [K in Exclude<RecordKind, 'transactions'>]: KindShape } = {
  invoices: {
    header: OPEN_ITEMS_COLUMNS,
    row: (i) => {
      const status = i % 3;
      const total = amountOf(i);
      return [
        `RE-${pad(i)}`,
        CUSTOMERS[i % CUSTOMERS.length] as string,
        germanAmount(total),
        germanAmount(status === 1 ? 0 : status === 2 ? Math.floor(total / 2) : total),
        ['offen', 'bezahlt', 'teilbezahlt'][status] as string,
        germanDate((i * 37) % 365),
        germanDate(((i * 37) % 365) + 30),
      ];
    },
    feed: `${ACCOUNT}mode: upsert\n${OPEN_ITEMS_MAPPING}`,
  },
  // Daily values replacing each other's period: a category and day repeat only every 4,380 rows, so
  // never twice in a chunk (at most 1,000), where the second would be rejected as a duplicate.
  plans: {
    header: ['Name', 'Kategorie', 'Betrag', 'Datum'],
    row: (i) => [
      `Plan ${i % 97}`,
      PLAN_CATEGORIES[i % PLAN_CATEGORIES.length] as string,
      germanAmount((i % 2 === 0 ? 1 : -1) * amountOf(i)),
      germanDate(Math.floor(i / PLAN_CATEGORIES.length) % 730),
    ],
    feed: `${ACCOUNT}mapping:
  name: Name
  categoryName: Kategorie
  amount: Betrag
  period: { const: DAILY }
  date: Datum
`,
  },
  'bank-accounts': {
    header: ['Konto', 'Bezeichnung', 'Bank', 'IBAN', 'Art', 'Saldo', 'Saldodatum'],
    row: (i) => [
      `K${pad(i)}`,
      `Konto ${i + 1}`,
      'Sparkasse Musterstadt',
      `DE${two(10 + (i % 89))}5001051754${String(i % 100_000_000).padStart(8, '0')}`,
      ['giro', 'tagesgeld', 'kredit'][i % 3] as string,
      germanAmount(amountOf(i)),
      germanDate(i % 365),
    ],
    feed: `${ACCOUNT}mapping:
  externalId: Konto
  accountName: Bezeichnung
  bankName: Bank
  iban: IBAN
  accountType: { column: Art, map: { giro: CHECKING, tagesgeld: SAVINGS, kredit: LOAN } }
  accountCurrency: { const: EUR }
  balanceReference: Saldo
  balanceDate: Saldodatum
`,
  },
  users: {
    header: ['Benutzer-ID', 'E-Mail', 'Vorname', 'Nachname', 'Rolle'],
    row: (i) => [
      `u-${pad(i)}`,
      `user-${pad(i)}@bench.example`,
      FIRST_NAMES[i % FIRST_NAMES.length] as string,
      LAST_NAMES[i % LAST_NAMES.length] as string,
      ['USER', 'CONTRIBUTOR', 'INVESTOR'][i % 3] as string,
    ],
    feed: `${ACCOUNT}mapping:
  externalId: Benutzer-ID
  email: E-Mail
  firstName: Vorname
  lastName: Nachname
  role: Rolle
`,
  },
  // The partner's customer accounts: no accountId (partner scope).
  accounts: {
    header: ['Mandant', 'Firma', 'Admin-ID', 'Admin-E-Mail', 'Admin-Vorname', 'Admin-Nachname', 'Sprache'],
    row: (i) => [
      `m-${pad(i)}`,
      `${CUSTOMERS[i % CUSTOMERS.length]} ${i + 1}`,
      `m-${pad(i)}-admin`,
      `admin-${pad(i)}@bench.example`,
      FIRST_NAMES[i % FIRST_NAMES.length] as string,
      LAST_NAMES[i % LAST_NAMES.length] as string,
      i % 2 === 0 ? 'de-DE' : 'en-US',
    ],
    feed: `mapping:
  externalId: Mandant
  companyName: Firma
  adminExternalId: Admin-ID
  adminEmail: Admin-E-Mail
  adminFirstName: Admin-Vorname
  adminLastName: Admin-Nachname
  adminLanguage: Sprache
`,
  },
  // A tree: every tenth row a top-level category, the nine after it its subcategories (same type),
  // so a parent is always in the chunk before or with its children.
  categories: {
    header: ['Kategorie', 'Art'],
    row: (i) => {
      const group = Math.floor(i / 10);
      const top = `Gruppe ${group + 1}`;
      return [
        i % 10 === 0 ? top : `${top}/Unterkategorie ${i % 10}`,
        group % 2 === 0 ? 'EXPENSE_OPERATIONAL' : 'INCOME_OPERATIONAL',
      ];
    },
    feed: `${ACCOUNT}mapping:
  path: Kategorie
  type: Art
`,
  },
};

/** Writes `<kind>-bench.csv` with `rows` records of the kind and `feed.yaml` into `dir`. */
export async function writeKindExport(dir: string, kind: RecordKind, rows: number): Promise<KindExport> {
  if (kind === 'transactions') {
    const bank = await writeGermanExport(dir, rows);
    return { ...bank, layout: GERMAN_EXPORT_CSV, parsedRecords: rows + 1 };
  }
  const shape = SHAPES[kind];
  const csvFile = join(dir, `${kind}-bench.csv`);
  const out = textWriter(csvFile, KIND_CSV.encoding);
  await out.put(`${shape.header.join(KIND_CSV.delimiter)}\r\n`);
  for (let start = 0; start < rows; start += ROWS_PER_WRITE) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rows, start + ROWS_PER_WRITE); i++)
      lines.push(shape.row(i).join(KIND_CSV.delimiter));
    await out.put(`${lines.join('\r\n')}\r\n`);
  }
  const bytes = await out.close();
  const feedFile = join(dir, 'feed.yaml');
  await writeFile(
    feedFile,
    `# Generated by test/bench/kind-exports.ts for the kinds benchmark.
name: bench-${kind}
kind: ${kind}
source:
  path: ${kind}-bench.csv
  format: csv
  delimiter: "${KIND_CSV.delimiter}"
  encoding: ${KIND_CSV.encoding}
  decimalSeparator: ","
  dateFormat: dd.MM.yyyy
${shape.feed}concurrency: 2
`,
  );
  return { feedFile, csvFile, rows, bytes, layout: KIND_CSV, parsedRecords: rows };
}

/**
 * The sandbox seed of the kinds benchmark: the one customer account with no user or bank-account
 * limit (the default subscription allows 5 of each), its default category tree, company and
 * scenario, and the partner's client the syncs log in with.
 */
export function kindsSeed(): unknown {
  return {
    partners: [
      {
        id: 'bench',
        name: 'Bench Partner',
        clients: [
          { clientId: 'sandbox-client', clientSecret: 'sandbox-secret', scopes: ['api:read', 'api:write'] },
        ],
      },
    ],
    accounts: [
      {
        id: BENCH_ACCOUNT_ID,
        externalId: 'bench',
        partnerId: 'bench',
        companyName: 'Bench GmbH',
        subscription: { maxAllowedUsers: 10_000_000, maxAllowedBankAccounts: 10_000_000 },
      },
    ],
  };
}
