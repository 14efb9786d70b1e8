import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { captureLogs } from '../../support/log-capture.js';
import { type SandboxFixture, withSandbox } from '../../support/sandbox.js';
import { ssoHelpers } from './sso-fixture.js';

/** The embedded application's HTTP side; its browser side runs in test/browser (npm run test:browser). */
describe('sandbox embedded application', () => {
  const logs = captureLogs();
  let sb: SandboxFixture;
  let appUrl: string;
  let appOrigin: string;

  beforeAll(async () => {
    sb = await withSandbox({ app: { allowedParents: ['https://portal.example'], logger: logs.logger } });
    appUrl = sb.sandbox.app?.url ?? '';
    appOrigin = sb.sandbox.app?.origin ?? '';
  });
  afterAll(() => sb.close());

  const exchange = (body: unknown, origin = appOrigin) =>
    fetch(new URL('/exchange', appUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify(body),
    });

  it('listens on its own origin and frames only under allow-listed parents (frame-ancestors)', async () => {
    expect(appOrigin).not.toBe(sb.sandbox.authUrl);
    const page = await fetch(appUrl);
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain('frame-ancestors https://portal.example');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('{"allowedParents":["https://portal.example"]}');

    sb.sandbox.app?.allowParent('http://127.0.0.1:9999/');
    const missing = await fetch(new URL('/nothing-here', appUrl));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toContain(
      'frame-ancestors https://portal.example http://127.0.0.1:9999',
    );
  });

  it("frames nowhere ('none') without allow-listed parents, and refuses an allow-list entry that is not an origin", async () => {
    const bare = await startSandbox({ app: {} });
    try {
      const page = await fetch(bare.app?.url ?? '');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await bare.close();
    }
    await expect(startSandbox({ app: { allowedParents: ['portal.example'] } })).rejects.toThrow(
      'allowed parent "portal.example" is not an origin; expected scheme://host[:port]',
    );
  });

  it('exchanges a token once for the app page only, with the spec codes, and logs no token', async () => {
    const sso = ssoHelpers(sb);
    const token = await sso.mint();
    const foreign = await exchange({ initToken: token }, 'https://portal.example');
    expect(foreign.status).toBe(403);

    const first = await exchange({ initToken: token, parentOrigin: 'https://portal.example' });
    expect(await first.json()).toEqual({
      type: 'service:auth-success',
      userId: sso.firstUser(1001).id,
      accountId: 1001,
      name: 'Ada Admin',
    });
    expect(await (await exchange({ initToken: token })).json()).toMatchObject({
      type: 'service:auth-error',
      code: 'TOKEN_ALREADY_USED',
    });
    expect(await (await exchange({})).json()).toMatchObject({ code: 'MISSING_TOKEN' });
    expect(await (await exchange({ initToken: 'not.a.token' })).json()).toMatchObject({
      code: 'INVALID_TOKEN',
    });

    const outcomes = logs.entries().map((entry) => entry.outcome ?? entry.msg);
    expect(outcomes).toEqual([
      'embedded exchange refused: not from the app page',
      'signed-in',
      'TOKEN_ALREADY_USED',
      'MISSING_TOKEN',
      'INVALID_TOKEN',
    ]);
    expect(logs.lines.join('\n')).not.toContain(token.split('.')[2]);
  });
});
