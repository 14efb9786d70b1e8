import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox } from '../../support/sandbox.js';

describe('sandbox request frame', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  beforeAll(async () => {
    sb = await withSandbox();
  });
  afterAll(() => sb.close());

  it('answers verify-auth for a valid token and tenant', async () => {
    const res = await sb.call('GET', '/authentication/verify-auth', { account: 1001 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, name: 'Demo Partner' });
  });

  it('refuses a missing or unknown token with 401 INVALID_CREDENTIALS', async () => {
    const res = await sb.call('GET', '/authentication/verify-auth', { account: 1001, token: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'INVALID_CREDENTIALS' });
    expect(typeof (res.body as { timestamp: unknown }).timestamp).toBe('number');
  });

  it('distinguishes missing header (400), unknown account (404) and foreign account (403)', async () => {
    expect((await sb.call('GET', '/authentication/verify-auth')).body).toMatchObject({
      error: 'MISSING_ACCOUNT_HEADER',
    });
    const unknown = await sb.call('GET', '/authentication/verify-auth', { account: 999 });
    expect(unknown.status).toBe(404);
    const foreign = await sb.call('GET', '/authentication/verify-auth', { account: 1003 });
    expect(foreign.status).toBe(403);
  });

  it('answers 405 for a wrong method and 404 for an unknown path', async () => {
    expect((await sb.call('DELETE', '/authentication/verify-auth', { account: 1001 })).status).toBe(405);
    expect((await sb.call('GET', '/nothing-here', { account: 1001 })).status).toBe(404);
  });
});
