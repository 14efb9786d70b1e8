import { ledgerOf } from '../../../src/sandbox/handlers/bank-account-rules.js';
import { insertTransaction } from '../../../src/sandbox/handlers/transaction-records.js';
import { parseSeed, type Seed } from '../../../src/sandbox/seed.js';
import type { TransactionRecord } from '../../../src/sandbox/state.js';
import type { withSandbox } from '../../support/sandbox.js';

type Fixture = Awaited<ReturnType<typeof withSandbox>>;

/** Tenant of the default seed (demo-partner): a PARTNER bank account 'main' and an ONLINE one 'online'. */
export const DEMO = 1001;

/**
 * A one-tenant seed (account 1001) with one bank account per provider, externalIds named after the
 * provider in lower case, and a bank-account limit of `maxAllowedBankAccounts` (API + PARTNER = 2 count).
 */
export function providerSeed(maxAllowedBankAccounts = 5, extra: Record<string, unknown>[] = []): Seed {
  const bank = (provider: string, more: Record<string, unknown> = {}) => ({
    externalId: provider.toLowerCase(),
    accountName: `${provider} account`,
    bankName: 'Seed Bank',
    provider,
    ...more,
  });
  return parseSeed(
    {
      partners: [
        {
          id: 'p',
          name: 'Partner',
          clients: [{ clientId: 'c', clientSecret: 's', scopes: ['api:read', 'api:write'] }],
        },
      ],
      accounts: [
        {
          id: DEMO,
          externalId: 'acme',
          partnerId: 'p',
          companyName: 'Acme GmbH',
          subscription: { maxAllowedBankAccounts, bankAccountAddons: 0 },
          bankAccounts: [bank('OFFLINE'), bank('API'), bank('PARTNER'), bank('ONLINE'), ...extra],
        },
      ],
    },
    'test',
  );
}

/** The id of the tenant's bank account with this externalId (looked up through the API itself). */
export async function bankId(sb: Fixture, externalId: string, account = DEMO): Promise<number> {
  const res = await sb.call('GET', '/bank-accounts', { account });
  const data = (res.body as { data: { id: number; externalId: string | null }[] }).data;
  const found = data.find((b) => b.externalId === externalId);
  if (!found) throw new Error(`no bank account with externalId ${externalId} in account ${account}`);
  return found.id;
}

/**
 * Puts a transaction straight into the sandbox's state, the way the sandbox stores one: for bank
 * accounts the API refuses to write (ONLINE, bank-synced), which tests still need to hold some.
 */
export function plantTransaction(
  sb: Fixture,
  bankAccountId: number,
  externalId: string,
  account = DEMO,
): TransactionRecord {
  const tenant = sb.sandbox.runtime.state.accounts.get(account);
  const bank = tenant?.bankAccounts.get(bankAccountId);
  if (!tenant || !bank) throw new Error(`no bank account ${bankAccountId} in account ${account}`);
  return insertTransaction(sb.sandbox.runtime.state, bank, ledgerOf(tenant, bankAccountId), {
    externalId,
    bookingDate: '2026-01-01',
    amount: 5,
  });
}

/** A minimal valid bank account create body. */
export function bankAccountBody(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accountCurrency: 'EUR',
    accountName: 'Ops',
    bankName: 'Test Bank',
    accountType: 'CHECKING',
    ...more,
  };
}

/** A minimal valid transaction (bulk item / single `transaction`). */
export function tx(
  externalId: string | undefined,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...(externalId === undefined ? {} : { externalId }),
    bookingDate: '2026-03-02',
    amount: -12.5,
    ...more,
  };
}

/** A minimal valid invoice create body. */
export function invoiceBody(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    invoiceNumber: 'INV-1',
    contactName: 'Customer AG',
    totalGrossAmount: 119,
    invoiceType: 'SALES_INVOICE',
    ...more,
  };
}
