import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A customer account of the sandbox (1001 and 1002 belong to the demo partner) with its feed. */
export interface Tenant {
  feed: string;
  accountId: number;
  bankAccount: string;
}

export const TENANTS: readonly Tenant[] = [
  { feed: 'lab-north', accountId: 1001, bankAccount: 'lab-north-giro' },
  { feed: 'lab-south', accountId: 1002, bankAccount: 'lab-south-giro' },
];

/** One generated export file: its tenant, its name and the externalIds of its rows, in order. */
export interface LabFile {
  tenant: Tenant;
  name: string;
  externalIds: string[];
}

/**
 * A batch of bank exports, `files` per tenant of `rows` rows each, written to `dir` as
 * `<feed>/tx-<batch>-<n>.csv` (";", decimal comma, dd.MM.yyyy). Every row has an externalId of its
 * own across batches and tenants, so the sandbox's records show any duplicate.
 */
export function writeBatch(dir: string, batch: string, files: number, rows: number): LabFile[] {
  const written: LabFile[] = [];
  for (const tenant of TENANTS) {
    mkdirSync(join(dir, tenant.feed), { recursive: true });
    for (let n = 1; n <= files; n++) {
      const name = `tx-${batch}-${n}.csv`;
      const externalIds: string[] = [];
      const lines = ['Buchungs-ID;Buchungsdatum;Betrag;Verwendungszweck'];
      for (let i = 1; i <= rows; i++) {
        const id = `${tenant.feed}-${batch}${n}-${String(i).padStart(5, '0')}`;
        const cents = ((i * 7919) % 500_000) - 250_000;
        const amount = `${cents < 0 ? '-' : ''}${Math.trunc(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
        lines.push(
          `${id};${String((i % 28) + 1).padStart(2, '0')}.03.2026;${amount};Rechnung ${batch}${n}/${i}`,
        );
        externalIds.push(id);
      }
      writeFileSync(join(dir, tenant.feed, name), `${lines.join('\n')}\n`);
      written.push({ tenant, name, externalIds });
    }
  }
  return written;
}

/** A tenant's feed file; `sourceKeys` say where its exports are (a path glob, maybe a location). */
export function feedYaml(tenant: Tenant, sourceKeys: readonly string[]): string {
  return [
    `name: ${tenant.feed}`,
    `accountId: ${tenant.accountId}`,
    'kind: transactions',
    'source:',
    ...sourceKeys.map((line) => `  ${line}`),
    '  format: csv',
    '  delimiter: ";"',
    '  decimalSeparator: ","',
    '  dateFormat: dd.MM.yyyy',
    'mapping:',
    '  externalId: Buchungs-ID',
    '  bookingDate: Buchungsdatum',
    '  amount: Betrag',
    '  currency: { const: EUR }',
    '  purpose: Verwendungszweck',
    'bankAccount:',
    `  externalId: ${tenant.bankAccount}`,
    '  accountName: Laborkonto',
    '  bankName: Labbank',
    '  accountCurrency: EUR',
    '  accountType: CHECKING',
    'concurrency: 2',
    '',
  ].join('\n');
}
