import type { ErrorRow, SandboxFixture } from './types.js';

const account = (externalId: string, email = `${externalId}@example.test`) => ({
  externalId,
  companyName: 'Row GmbH',
  user: { externalId: 'row-admin', email, firstName: 'Rowan', lastName: 'Row' },
});

/** Get, update and delete of the seeded account 1001, with whatever header the row needs. */
const accountOps = (headers: { account?: number }, path = '/accounts/1001') => [
  { op: 'get', call: (sb: SandboxFixture) => sb.call('GET', path, headers) },
  {
    op: 'update',
    call: (sb: SandboxFixture) => sb.call('PATCH', path, { ...headers, body: { companyName: 'X' } }),
  },
  { op: 'delete', call: (sb: SandboxFixture) => sb.call('DELETE', path, headers) },
];

export const rows: ErrorRow[] = [
  {
    spec: { operation: 'Create account', status: 400, error: 'INVALID_REQUEST' },
    how: 'initial user without an email',
    provoke: (sb) =>
      sb.call('POST', '/accounts', {
        body: { externalId: 'e', companyName: 'C', user: { externalId: 'u', firstName: 'F', lastName: 'L' } },
      }),
  },
  {
    spec: { operation: 'Create account', status: 400, error: 'INVALID_REQUEST' },
    how: 'body is not JSON',
    provoke: (sb) => sb.call('POST', '/accounts', { body: '{"externalId":' }),
  },
  {
    spec: { operation: 'Create account', status: 403, error: 'INSUFFICIENT_SCOPE' },
    how: 'read-only client sandbox-reader',
    provoke: async (sb) =>
      sb.call('POST', '/accounts', {
        body: account('ro'),
        token: await sb.token('sandbox-reader', 'sandbox-secret'),
      }),
  },
  {
    spec: { operation: 'Create account', status: 409, error: 'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS' },
    how: 'externalId of the seeded account "demo"',
    provoke: (sb) => sb.call('POST', '/accounts', { body: account('demo') }),
  },
  {
    spec: { operation: 'Create account', status: 409, error: 'USER_EMAIL_ALREADY_EXISTS' },
    how: 'initial user email of a seeded admin',
    provoke: (sb) => sb.call('POST', '/accounts', { body: account('fresh', 'admin@demo.example') }),
  },
  {
    spec: { operation: 'List accounts', status: 400, error: 'INVALID_REQUEST' },
    how: 'unknown status value',
    provoke: (sb) => sb.call('GET', '/accounts?status=FROZEN'),
  },
  {
    spec: { operation: 'List accounts', status: 400, error: 'INVALID_REQUEST' },
    how: 'pageSize above 1000',
    provoke: (sb) => sb.call('GET', '/accounts?pageSize=1001'),
  },
  ...accountOps({}).map(
    ({ op, call }): ErrorRow => ({
      spec: { operation: 'Get/Update/Delete account', status: 400, error: 'MISSING_ACCOUNT_HEADER' },
      how: `${op} without X-Account-Id`,
      provoke: call,
    }),
  ),
  ...accountOps({ account: 999 }, '/accounts/999').map(
    ({ op, call }): ErrorRow => ({
      spec: { operation: 'Get/Update/Delete account', status: 404, error: 'ACCOUNT_NOT_FOUND' },
      how: `${op} of an account that does not exist`,
      provoke: call,
    }),
  ),
  ...accountOps({ account: 1002 }).map(
    ({ op, call }): ErrorRow => ({
      spec: { operation: 'Get/Update/Delete account', status: 404, error: 'ACCOUNT_NOT_FOUND' },
      how: `${op} with a path id other than X-Account-Id`,
      provoke: call,
    }),
  ),
  {
    spec: { operation: 'Update account', status: 400, error: 'INVALID_REQUEST' },
    how: 'externalId is not partner-mutable',
    provoke: (sb) => sb.call('PATCH', '/accounts/1001', { account: 1001, body: { externalId: 'other' } }),
  },
  {
    spec: { operation: 'Update account', status: 400, error: 'INVALID_REQUEST' },
    how: 'empty companyName',
    provoke: (sb) => sb.call('PATCH', '/accounts/1001', { account: 1001, body: { companyName: '' } }),
  },
];
