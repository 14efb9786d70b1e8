import { namedFiles } from './source-files.js';

/**
 * One tenant provisioned from CSV (an accounts feed) and its bank transactions and invoices, whose
 * feeds name the tenant by its externalId (feed-level `accountExternalId`), not by a numeric id.
 * `tag` keeps one test's externalIds apart from another's; `transactions` rows are generated.
 */
export function tenantFeeds(tag: string, transactions = 3) {
  const { dir, write } = namedFiles('tenant');
  write('tenants.csv', [
    'id;company;admin_id;admin_email;admin_first;admin_last',
    `${tag};Tenant ${tag} GmbH;boss;boss@${tag}.test;Ada;Admin`,
  ]);
  const rows = Array.from({ length: transactions }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    const cents = String(i % 100).padStart(2, '0');
    return `T-${i + 1};2026-02-${day};${i % 3 === 0 ? '-' : ''}${10 + i}.${cents};Payment ${i + 1};Counterparty ${i % 7}`;
  });
  write('bank.csv', ['id;date;amount;purpose;who', ...rows]);
  write('invoices.csv', [
    'id;number;customer;total;open;status;date',
    'INV-1;RE-1;Alpha GmbH;1190.00;0;PAID;2026-01-20',
    'INV-2;RE-2;Beta AG;595.00;595.00;OPEN;2026-02-01',
    'INV-3;RE-3;Gamma KG;23800.00;23800.00;OPEN;2026-02-10',
  ]);
  const feed = (name: string, lines: string[]) => write(`${name}.yaml`, [`name: ${tag}-${name}`, ...lines]);
  return {
    dir,
    tenants: feed('tenants', [
      'kind: accounts',
      'source: {path: tenants.csv, format: csv, delimiter: ";"}',
      'mapping: {externalId: id, companyName: company, adminExternalId: admin_id, adminEmail: admin_email, adminFirstName: admin_first, adminLastName: admin_last}',
    ]),
    bank: feed('bank', [
      `accountExternalId: ${tag}`,
      'kind: transactions',
      'source: {path: bank.csv, format: csv, delimiter: ";", dateFormat: yyyy-MM-dd}',
      'mapping: {externalId: id, bookingDate: date, amount: amount, currency: {const: EUR}, purpose: purpose, counterpartyName: who}',
      `bankAccount: {externalId: ${tag}-giro, accountName: Giro, bankName: Testbank, accountCurrency: EUR, accountType: CHECKING}`,
    ]),
    invoices: feed('invoices', [
      `accountExternalId: ${tag}`,
      'kind: invoices',
      'source: {path: invoices.csv, format: csv, delimiter: ";", dateFormat: yyyy-MM-dd}',
      'mapping: {externalId: id, invoiceType: {const: SALES_INVOICE}, invoiceNumber: number, contactName: customer, totalGrossAmount: total, openAmount: open, invoiceStatus: status, invoiceDate: date}',
    ]),
  };
}
