import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';

/**
 * Generated ERP exports, large enough for several chunks, each written to a fresh temp folder with
 * its feed YAML next to it. Amounts are generated in cents, so a test knows the file's exact total
 * without the code under test.
 */
export interface GeneratedExport {
  feedFile: string;
  dir: string;
  /** Every data line of the file (1-based line numbers, as the report names them). */
  lines: number[];
  /** Lines the mapper must reject locally (they never reach the service). */
  invalidLines: number[];
  /** Lines the feed's exclude rule leaves out (reported skipped, never sent). */
  excludedLines: number[];
  /** externalIds of the records that are sent, in file order; `sentLines` are their lines. */
  externalIds: string[];
  sentLines: number[];
  /** Exact sum of every amount in the file, canonical decimal text ("-1234.5"). */
  total: string;
}

/** A fresh temp folder holding `files` (name -> content); returns its path. */
function exportDir(prefix: string, files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-${prefix}-`));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/**
 * A demo feed (config/feeds/demo/<feed>.yaml) pointed at another export: the feed YAML is copied
 * next to `content`, with only its source path changed. Returns the copied feed file.
 */
export function demoFeedWith(feed: string, exportName: string, content: string): string {
  const yaml = readFileSync(`config/feeds/demo/${feed}.yaml`, 'utf8').replace(
    /^ {2}path: .*$/m,
    `  path: ${exportName}`,
  );
  return join(exportDir(`demo-${feed}`, { 'feed.yaml': yaml, [exportName]: content }), 'feed.yaml');
}

/** Canonical decimal text of an amount in cents: no trailing zeros, no "-0". */
export function centsToDecimal(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const frac = (abs % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  const text = frac ? `${abs / 100n}.${frac}` : `${abs / 100n}`;
  return negative ? `-${text}` : text;
}

/** Cents of a canonical decimal text with at most two fraction digits. */
export function decimalToCents(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [int = '0', frac = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const cents = BigInt(int) * 100n + BigInt(frac.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** A deterministic amount in cents for row i: mixed signs, up to five figures. */
const centsOf = (i: number): bigint =>
  BigInt((((i * 7919) % 2_500_003) - 1_250_000) * (i % 3 === 0 ? -1 : 1));

/** German notation: "-1.234,56". */
function german(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const euros = (abs / 100n).toString().replace(/\B(?=(\d{3})+$)/g, '.');
  return `${negative ? '-' : ''}${euros},${(abs % 100n).toString().padStart(2, '0')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

export interface TransactionsExportOptions {
  rows?: number;
  /** Rows (0-based) whose booking date is impossible: rejected locally. */
  invalidRows?: readonly number[];
  /** Rows (0-based) still pending ("Umsatz vorgemerkt"): left out by the feed's exclude rule. */
  excludedRows?: readonly number[];
  /** Feed name, also the prefix of the externalIds. */
  name?: string;
  accountId?: number;
  /** externalId of the target bank account. */
  bankAccount?: string;
  concurrency?: number;
}

/**
 * A bank export in German conventions: Windows-1252, ";" delimiter, decimal comma with "."
 * thousands, dd.MM.yyyy dates, umlauts in names, a booking-ID column; and its feed YAML.
 */
export function transactionsExport(options: TransactionsExportOptions = {}): GeneratedExport {
  const {
    rows = 2_500,
    invalidRows = [17, 1_234, 2_401],
    excludedRows = [3, 2_222],
    name = 'gen-tx',
    accountId = 1001,
    bankAccount = 'gen-giro',
    concurrency = 1,
  } = options;
  const invalid = new Set(invalidRows);
  const pending = new Set(excludedRows);
  const text = [
    'Buchungs-ID;Buchungsdatum;Wertstellung;Empfänger/Zahlungspflichtiger;Verwendungszweck;Betrag;Info',
  ];
  const expected = new Expected();
  for (let i = 0; i < rows; i++) {
    const cents = centsOf(i + 1);
    const id = `${name}-${String(i + 1).padStart(6, '0')}`;
    const day = invalid.has(i) ? '31.02.2026' : `${pad((i % 28) + 1)}.${pad((i % 12) + 1)}.2026`;
    const who = ['Müller & Söhne GmbH', 'Bäckerei Weiß', 'Öko-Strom AG', 'Jürgen Groß'][i % 4];
    const info = pending.has(i) ? 'Umsatz vorgemerkt' : 'Umsatz gebucht';
    text.push(`${id};${day};${day};${who};Rechnung Nr. ${i + 1} – Zahlung;${german(cents)};${info}`);
    expected.add(i + 2, id, cents, invalid.has(i) ? 'invalid' : pending.has(i) ? 'excluded' : 'sent');
  }
  const feed = [
    `name: ${name}`,
    `accountId: ${accountId}`,
    'kind: transactions',
    'source:',
    '  path: umsaetze.csv',
    '  format: csv',
    '  delimiter: ";"',
    '  encoding: windows-1252',
    '  decimalSeparator: ","',
    '  dateFormat: dd.MM.yyyy',
    'mapping:',
    '  externalId: Buchungs-ID',
    '  bookingDate: Buchungsdatum',
    '  valueDate: Wertstellung',
    '  amount: Betrag',
    '  currency: { const: EUR }',
    '  purpose: Verwendungszweck',
    '  counterpartyName: Empfänger/Zahlungspflichtiger',
    'exclude:',
    '  - { column: Info, equals: Umsatz vorgemerkt }',
    'bankAccount:',
    `  externalId: ${bankAccount}`,
    '  accountName: Generiertes Girokonto',
    '  bankName: Testbank',
    `concurrency: ${concurrency}`,
  ];
  const csv = iconv.encode(`${text.join('\r\n')}\r\n`, 'windows-1252');
  return expected.written('gen-tx', feed, { 'umsaetze.csv': csv });
}

export interface InvoicesExportOptions {
  rows?: number;
  /** Rows (0-based) with an invoice type the feed does not map: rejected locally. */
  invalidRows?: readonly number[];
  name?: string;
  accountId?: number;
  concurrency?: number;
}

/** Sales invoices and credit notes as JSON Lines (as the demo invoices feed reads them), and their feed YAML. */
export function invoicesExport(options: InvoicesExportOptions = {}): GeneratedExport {
  const {
    rows = 1_100,
    invalidRows = [3, 1_050],
    name = 'gen-inv',
    accountId = 1001,
    concurrency = 1,
  } = options;
  const invalid = new Set(invalidRows);
  const text: string[] = [];
  const expected = new Expected();
  for (let i = 0; i < rows; i++) {
    const credit = i % 10 === 9;
    const magnitude = centsOf(i + 1) < 0n ? -centsOf(i + 1) : centsOf(i + 1);
    const cents = credit ? -magnitude : magnitude;
    const id = `${name}-${String(i + 1).padStart(6, '0')}`;
    text.push(
      JSON.stringify({
        id,
        type: invalid.has(i) ? 'proforma' : credit ? 'credit_note' : 'invoice',
        number: `RE-${i + 1}`,
        customer: { name: ['Müller & Söhne GmbH', 'Nordlicht AG', 'Ä. Özdemir'][i % 3] },
        total: centsToDecimal(cents),
        status: i % 2 === 0 ? 'offen' : 'bezahlt',
        date: `2026-${pad((i % 12) + 1)}-${pad((i % 28) + 1)}`,
      }),
    );
    expected.add(i + 1, id, cents, invalid.has(i) ? 'invalid' : 'sent');
  }
  const feed = [
    `name: ${name}`,
    `accountId: ${accountId}`,
    'kind: invoices',
    'source:',
    '  path: invoices.jsonl',
    '  format: jsonl',
    'mapping:',
    '  externalId: id',
    '  invoiceType: { column: type, map: { invoice: SALES_INVOICE, credit_note: SALES_CREDIT_NOTE } }',
    '  invoiceNumber: number',
    '  contactName: customer.name',
    '  totalGrossAmount: total',
    '  invoiceStatus: { column: status, map: { offen: OPEN, bezahlt: PAID } }',
    '  invoiceDate: date',
    `concurrency: ${concurrency}`,
  ];
  return expected.written('gen-inv', feed, { 'invoices.jsonl': `${text.join('\n')}\n` });
}

/** What a generator knows about its file while writing it. */
class Expected {
  readonly lines: number[] = [];
  readonly invalidLines: number[] = [];
  readonly excludedLines: number[] = [];
  readonly externalIds: string[] = [];
  readonly sentLines: number[] = [];
  private total = 0n;

  add(line: number, externalId: string, cents: bigint, fate: 'sent' | 'invalid' | 'excluded'): void {
    this.total += cents;
    this.lines.push(line);
    if (fate === 'invalid') this.invalidLines.push(line);
    else if (fate === 'excluded') this.excludedLines.push(line);
    else {
      this.externalIds.push(externalId);
      this.sentLines.push(line);
    }
  }

  /** Writes the export and its feed.yaml to a fresh temp folder. */
  written(prefix: string, feed: string[], files: Record<string, string | Buffer>): GeneratedExport {
    const dir = exportDir(prefix, { ...files, 'feed.yaml': `${feed.join('\n')}\n` });
    return {
      feedFile: join(dir, 'feed.yaml'),
      dir,
      lines: this.lines,
      invalidLines: this.invalidLines,
      excludedLines: this.excludedLines,
      externalIds: this.externalIds,
      sentLines: this.sentLines,
      total: centsToDecimal(this.total),
    };
  }
}

/**
 * A small valid transactions export (no rejected or excluded rows) whose feed reads every CSV of
 * its folder, with further `source` keys (location, arrival, afterRun) and top-level lines (watch).
 * `file` is the export's path.
 */
export function globbedExport(
  name: string,
  options: { sourceKeys?: string[]; topLevel?: string[]; rows?: number; bankAccount?: string } = {},
): GeneratedExport & { file: string } {
  const exp = transactionsExport({
    rows: options.rows ?? 5,
    name,
    invalidRows: [],
    excludedRows: [],
    ...(options.bankAccount ? { bankAccount: options.bankAccount } : {}),
  });
  const yaml = readFileSync(exp.feedFile, 'utf8').replace(
    /^ {2}path: .*$/m,
    ['  path: "*.csv"', ...(options.sourceKeys ?? []).map((k) => `  ${k}`)].join('\n'),
  );
  writeFileSync(exp.feedFile, `${yaml}\n${(options.topLevel ?? []).join('\n')}\n`);
  return { ...exp, file: join(exp.dir, 'umsaetze.csv') };
}
