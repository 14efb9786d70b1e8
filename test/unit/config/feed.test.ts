import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadFeedFile, parseFeed } from '../../../src/config/load-feed.js';
import { fixtureWriter } from '../../support/source-files.js';

/** The minimum shape from the issue, accepted as written. */
const ISSUE_EXAMPLE = `
name: acme-bank                  # unique
accountId: 1001                  # X-Account-Id of the customer account
kind: transactions               # transactions | invoices | plans | bank-accounts
source:
  path: exports/acme/bank-*.csv  # glob, relative to the feed file
  format: csv                    # csv | jsonl
  delimiter: ";"
  encoding: windows-1252         # utf-8 (BOM or not), windows-1252, iso-8859-1
  decimalSeparator: ","          # "1.234,56" as well as "1,234.56"
  dateFormat: dd.MM.yyyy         # and yyyy-MM-dd, d.M.yyyy, MM/dd/yyyy
mapping:                         # service field: source column name (or a constant)
  externalId: Buchungs-ID
  bookingDate: Buchungsdatum
  amount: Betrag
  purpose: Verwendungszweck
bankAccount:                     # transactions only: the target, found by externalId and
  externalId: acme-main          # created as a PARTNER account with these fields when absent
  accountName: Hauptkonto
  bankName: Sparkasse
  accountCurrency: EUR
  accountType: CHECKING
schedule: "0 2 * * *"            # cron, used by the fleet's scheduler
concurrency: 2                   # per-tenant limit for this feed
`;

function problems(text: string): string {
  try {
    parseFeed(text, '/feeds/bad.yaml');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('feed files', () => {
  it("accept the issue's minimum shape as written, with defaults filled in", () => {
    const { feed, sourceGlob } = parseFeed(ISSUE_EXAMPLE, '/srv/feeds/acme.yaml');
    expect(feed).toMatchObject({
      name: 'acme-bank',
      accountId: 1001,
      kind: 'transactions',
      concurrency: 2,
      mode: 'upsert',
    });
    expect(feed.source).toMatchObject({
      delimiter: ';',
      encoding: 'windows-1252',
      decimalSeparator: ',',
      skipLines: 0,
    });
    expect(feed.mapping.amount).toBe('Betrag');
    expect(sourceGlob).toBe('/srv/feeds/exports/acme/bank-*.csv');
  });

  it('name the file, the key path and what was expected', () => {
    const message = problems(
      ISSUE_EXAMPLE.replace('accountId: 1001', 'accountId: abc').replace('format: csv', 'format: ods'),
    );
    expect(message).toContain('/feeds/bad.yaml: invalid feed');
    expect(message).toMatch(/accountId: .*number/);
    expect(message).toMatch(/source\.format: .*"csv"|"jsonl"/);
  });

  it('refuse unknown mapping fields and list the allowed ones', () => {
    expect(problems(ISSUE_EXAMPLE.replace('purpose: Verwendungszweck', 'purpos: Verwendungszweck'))).toMatch(
      /mapping\.purpos: unknown field for kind transactions; expected one of: externalId, bookingDate/,
    );
  });

  it('require the fields the service requires, per kind', () => {
    expect(problems(ISSUE_EXAMPLE.replace('  amount: Betrag\n', ''))).toMatch(
      /mapping\.amount: required for kind transactions/,
    );
    const invoice = `name: inv\naccountId: 1\nkind: invoices\nsource: {path: a.csv, format: csv}\nmapping: {invoiceNumber: Nr, contactName: Kunde, totalGrossAmount: Brutto}\n`;
    expect(problems(invoice)).toMatch(/mapping\.invoiceType: required for kind invoices/);
  });

  it('require a target bank account for transactions only', () => {
    expect(problems(ISSUE_EXAMPLE.replace(/bankAccount:[\s\S]*accountType: CHECKING\n/, ''))).toMatch(
      /bankAccount: required for kind transactions/,
    );
  });

  it('take bankAccounts (a map or auto) instead of bankAccount, for bank statement formats only', () => {
    const camt = 'name: st\naccountId: 1\nkind: transactions\nsource: {path: a.xml, format: camt}\n';
    const target = '{externalId: a, accountName: A, bankName: B}';
    const mapped = parseFeed(`${camt}bankAccounts: {"DE89 3704": ${target}}\n`, '/f.yaml').feed;
    expect(mapped.bankAccounts).toEqual({
      'DE89 3704': {
        externalId: 'a',
        accountName: 'A',
        bankName: 'B',
        accountCurrency: 'EUR',
        accountType: 'CHECKING',
      },
    });
    expect(parseFeed(`${camt}bankAccounts: auto\n`, '/f.yaml').feed.bankAccounts).toBe('auto');
    expect(problems(`${camt}bankAccounts: {"DE89 3704": ${target}, de893704: ${target}}\n`)).toMatch(
      /bankAccounts\.de893704: names the same account as "DE89 3704"/,
    );
    expect(problems(`${camt}bankAccounts: auto\nbankAccount: ${target}\n`)).toMatch(
      /bankAccounts: give either bankAccount or bankAccounts, not both/,
    );
    expect(
      problems(ISSUE_EXAMPLE.replace(/bankAccount:[\s\S]*accountType: CHECKING\n/, 'bankAccounts: auto\n')),
    ).toMatch(/bankAccounts: a csv file names no statement account: give bankAccount instead/);
    const invoice = `name: inv\naccountId: 1\nkind: invoices\nsource: {path: a.csv, format: csv}\nmapping: {invoiceNumber: Nr, contactName: Kunde, totalGrossAmount: Brutto, invoiceType: {const: SALES}}\nbankAccounts: auto\n`;
    expect(problems(invoice)).toMatch(
      /bankAccounts: only transactions feeds have target bank accounts per statement account/,
    );
  });

  it('accept every mapping form and refuse an unknown one with the list of forms', () => {
    const forms = ISSUE_EXAMPLE.replace(
      'amount: Betrag',
      'amount: {column: Betrag, sign: {column: S/H}}\n  currency: {const: EUR}\n  counterpartyName: {column: 3}\n  valueDate: {column: Valuta, default: "01.01.2026"}',
    ).replace('purpose: Verwendungszweck', 'purpose: {columns: [VWZ1, VWZ2]}');
    const { feed } = parseFeed(forms, '/f.yaml');
    expect(feed.mapping.amount).toEqual({
      column: 'Betrag',
      sign: { column: 'S/H', negative: ['S', 'D', '-'], positive: ['H', 'C', '+'] },
    });
    expect(feed.mapping.purpose).toEqual({ columns: ['VWZ1', 'VWZ2'], separator: ' ' });
    expect(problems(ISSUE_EXAMPLE.replace('amount: Betrag', 'amount: {col: Betrag}'))).toMatch(
      /mapping\.amount: expected a column name, or one of/,
    );
  });

  it('refuse an unsupported dateFormat at load time, naming the file and the key', () => {
    const message = problems(ISSUE_EXAMPLE.replace('dateFormat: dd.MM.yyyy', 'dateFormat: dd.MMM.yyyy'));
    expect(message).toContain('/feeds/bad.yaml: invalid feed');
    expect(message).toMatch(/source\.dateFormat: unsupported date format "dd\.MMM\.yyyy": use the tokens/);
    expect(problems(ISSUE_EXAMPLE.replace('dateFormat: dd.MM.yyyy', 'dateFormat: yyyy-MM'))).toMatch(
      /source\.dateFormat: unsupported date format "yyyy-MM"/,
    );
  });

  it('refuse invalid regular expressions and bad YAML', () => {
    expect(
      problems(
        ISSUE_EXAMPLE.replace('dateFormat: dd.MM.yyyy', 'dateFormat: dd.MM.yyyy\n  headerPattern: "(["'),
      ),
    ).toMatch(/source\.headerPattern: not a valid regular expression/);
    expect(problems('name: [unclosed')).toMatch(/not valid YAML/);
  });

  it('name the feed file on disk and nested key paths, list positions and misspelt keys included', async () => {
    const path = fixtureWriter('feed')(
      ISSUE_EXAMPLE.replace(
        'dateFormat: dd.MM.yyyy',
        'dateFormat: dd.MM.yyyy\n  skipLines: three\n  skipRowsMatching: ["^Saldo", 5]\n  delimeter: ","',
      )
        .replace('accountType: CHECKING', 'accountType: GIRO')
        .replace('concurrency: 2', 'concurrency: 2\nexclude:\n  - {column: Status, equals: 1}'),
      'yaml',
    );
    const error = await loadFeedFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message.split('\n')).toEqual([
      `${path}: invalid feed`,
      '  - source.skipLines: Invalid input: expected number, received string',
      '  - source.skipRowsMatching.1: Invalid input: expected string, received number',
      '  - source: Unrecognized key: "delimeter" (delimeter)',
      '  - bankAccount.accountType: Invalid option: expected one of "CHECKING"|"SAVINGS"|"CREDITCARD"|"SECURITY"|"LOAN"|"POCKET"|"MEMBERSHIP"|"BAUSPAREN"',
      '  - exclude.0.equals: Invalid input: expected string, received number',
    ]);
  });

  it('an accounts feed names no accountId (partner scope, account 0); every other kind needs one', () => {
    const accounts = [
      'name: tenants',
      'kind: accounts',
      'source: {path: tenants.csv, format: csv}',
      'mapping: {externalId: id, companyName: company, adminExternalId: admin, adminEmail: email, adminFirstName: first, adminLastName: last}',
    ].join('\n');
    expect(parseFeed(accounts, '/feeds/tenants.yaml').feed.accountId).toBe(0);
    expect(problems(`${accounts}\naccountId: 1001`)).toContain(
      "accountId: an accounts feed writes the partner's own records, in no customer account: remove accountId",
    );
    expect(problems(ISSUE_EXAMPLE.replace(/^accountId: .*$/m, ''))).toContain(
      'accountId: required for kind transactions: the customer account (X-Account-Id) every record goes to',
    );
  });

  it('a users or categories feed whose records name their account may leave out accountId', () => {
    const users = [
      'name: tenant-users',
      'kind: users',
      'source: {path: users.csv, format: csv}',
      'mapping: {email: email, firstName: first, lastName: last}',
    ].join('\n');
    expect(problems(users)).toContain(
      'accountId: required for kind users: the customer account (X-Account-Id) every record goes to, or accountExternalId (its externalId), unless the records name theirs (mapping.accountExternalId)',
    );
    const named = users.replace('mapping: {', 'mapping: {accountExternalId: tenant, ');
    expect(parseFeed(named, '/feeds/users.yaml').feed.accountId).toBe(0);
    expect(parseFeed(`${named}\naccountId: 1001`, '/feeds/users.yaml').feed.accountId).toBe(1001);
    const categories =
      'name: trees\nkind: categories\nsource: {path: c.csv, format: csv}\nmapping: {accountExternalId: t, path: p, type: y}';
    expect(parseFeed(categories, '/feeds/trees.yaml').feed.accountId).toBe(0);
  });

  it('a feed may name its account by externalId (accountExternalId) instead of accountId, never both', () => {
    const named = ISSUE_EXAMPLE.replace(/^accountId: .*$/m, 'accountExternalId: acme');
    const { feed } = parseFeed(named, '/feeds/acme.yaml');
    expect(feed).toMatchObject({ accountExternalId: 'acme', accountId: 0 });
    expect(problems(`${ISSUE_EXAMPLE}\naccountExternalId: acme`)).toContain(
      'accountExternalId: give either accountId or accountExternalId (the same account by its externalId), not both',
    );
    const accounts =
      'name: tenants\nkind: accounts\naccountExternalId: x\nsource: {path: t.csv, format: csv}\nmapping: {externalId: id, companyName: c, adminExternalId: a, adminEmail: e, adminFirstName: f, adminLastName: l}';
    expect(problems(accounts)).toContain(
      "accountExternalId: an accounts feed writes the partner's own records, in no customer account: remove accountExternalId",
    );
  });

  it('name a feed file that cannot be read', async () => {
    await expect(loadFeedFile('/nonexistent/feeds/acme.yaml')).rejects.toThrow(
      '/nonexistent/feeds/acme.yaml: cannot read the feed file (ENOENT)',
    );
  });
});
