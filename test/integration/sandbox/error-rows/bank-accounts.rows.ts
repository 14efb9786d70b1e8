import { bankAccountBody, bankId, DEMO, providerSeed } from '../finance-fixtures.js';
import type { ErrorRow, SandboxFixture } from './types.js';

const DAY_MS = 86_400_000;
const convert = async (sb: SandboxFixture, externalId: string, body: unknown) =>
  sb.call('POST', `/bank-accounts/${await bankId(sb, externalId)}/convert`, { account: DEMO, body });

/** Rows of the spec's error table for bank-account operations (create, update, delete, convert). */
export const rows: ErrorRow[] = [
  {
    spec: { operation: 'Create bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'body without the required accountName',
    provoke: (sb) =>
      sb.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody({ accountName: undefined }) }),
  },
  {
    spec: { operation: 'Create bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'accountType outside the enum',
    provoke: (sb) =>
      sb.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody({ accountType: 'WALLET' }) }),
  },
  {
    spec: { operation: 'Create bank account', status: 400, error: 'MAX_BANK_ACCOUNTS_REACHED' },
    how: 'limit 2 with the API and PARTNER accounts already counting',
    options: { seed: providerSeed(2) },
    provoke: (sb) => sb.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody() }),
  },
  {
    spec: { operation: 'Create bank account', status: 404, error: 'COMPANY_NOT_FOUND' },
    how: 'companyId not in the account',
    provoke: (sb) =>
      sb.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody({ companyId: 987654 }) }),
  },
  {
    spec: { operation: 'Update/Delete bank account', status: 404, error: 'BANK_ACCOUNT_NOT_FOUND' },
    how: 'PATCH of an unknown id',
    provoke: (sb) => sb.call('PATCH', '/bank-accounts/987654', { account: DEMO, body: { accountName: 'x' } }),
  },
  {
    spec: { operation: 'Update/Delete bank account', status: 404, error: 'BANK_ACCOUNT_NOT_FOUND' },
    how: "DELETE of another tenant's bank account",
    provoke: async (sb) =>
      sb.call('DELETE', `/bank-accounts/${await bankId(sb, 'main', 1002)}`, { account: DEMO }),
  },
  {
    spec: { operation: 'Update/Delete bank account', status: 409, error: 'BANK_ACCOUNT_NOT_MODIFIABLE' },
    how: 'PATCH of an ONLINE account',
    provoke: async (sb) =>
      sb.call('PATCH', `/bank-accounts/${await bankId(sb, 'online')}`, {
        account: DEMO,
        body: { visible: false },
      }),
  },
  {
    spec: { operation: 'Update/Delete bank account', status: 409, error: 'BANK_ACCOUNT_NOT_MODIFIABLE' },
    how: 'DELETE of an API account',
    options: { seed: providerSeed() },
    provoke: async (sb) => sb.call('DELETE', `/bank-accounts/${await bankId(sb, 'api')}`, { account: DEMO }),
  },
  {
    spec: { operation: 'Update bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'bankName longer than 255 characters',
    provoke: async (sb) =>
      sb.call('PATCH', `/bank-accounts/${await bankId(sb, 'main')}`, {
        account: DEMO,
        body: { bankName: 'b'.repeat(256) },
      }),
  },
  {
    spec: { operation: 'Update bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'unknown field provider',
    provoke: async (sb) =>
      sb.call('PATCH', `/bank-accounts/${await bankId(sb, 'main')}`, {
        account: DEMO,
        body: { provider: 'API' },
      }),
  },
  {
    spec: { operation: 'Convert bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'targetProvider missing',
    options: { seed: providerSeed() },
    provoke: (sb) => convert(sb, 'offline', {}),
  },
  {
    spec: { operation: 'Convert bank account', status: 400, error: 'INVALID_REQUEST' },
    how: 'targetProvider ONLINE (only API or OFFLINE)',
    options: { seed: providerSeed() },
    provoke: (sb) => convert(sb, 'offline', { targetProvider: 'ONLINE' }),
  },
  {
    spec: { operation: 'Convert bank account', status: 400, error: 'PROVIDER_CONVERSION_TOO_SOON' },
    how: 'OFFLINE -> API, then back 29 days later',
    options: { seed: providerSeed() },
    provoke: async (sb) => {
      const first = await convert(sb, 'offline', { targetProvider: 'API' });
      if (first.status !== 200) return first;
      sb.sandbox.runtime.clock.advance(29 * DAY_MS);
      return convert(sb, 'offline', { targetProvider: 'OFFLINE' });
    },
  },
  {
    spec: { operation: 'Convert bank account', status: 400, error: 'MAX_BANK_ACCOUNTS_REACHED' },
    how: 'OFFLINE -> API with the limit (2) already used by the API and PARTNER accounts',
    options: { seed: providerSeed(2) },
    provoke: (sb) => convert(sb, 'offline', { targetProvider: 'API' }),
  },
  {
    spec: { operation: 'Convert bank account', status: 404, error: 'BANK_ACCOUNT_NOT_FOUND' },
    how: 'unknown id',
    provoke: (sb) =>
      sb.call('POST', '/bank-accounts/987654/convert', { account: DEMO, body: { targetProvider: 'API' } }),
  },
  {
    spec: { operation: 'Convert bank account', status: 409, error: 'PROVIDER_CONVERSION_NOT_ALLOWED' },
    how: 'current provider PARTNER',
    provoke: (sb) => convert(sb, 'main', { targetProvider: 'API' }),
  },
  {
    spec: { operation: 'Convert bank account', status: 409, error: 'PROVIDER_CONVERSION_NOT_ALLOWED' },
    how: 'current provider ONLINE',
    provoke: (sb) => convert(sb, 'online', { targetProvider: 'OFFLINE' }),
  },
  {
    spec: { operation: 'Convert bank account', status: 409, error: 'PROVIDER_CONVERSION_NOT_ALLOWED' },
    how: 'target equal to the current provider (API -> API)',
    options: { seed: providerSeed() },
    provoke: (sb) => convert(sb, 'api', { targetProvider: 'API' }),
  },
];
