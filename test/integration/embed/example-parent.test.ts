import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { type ExampleParent, startExampleParent } from '../../../src/embed/server/index.js';
import { captureLogs } from '../../support/log-capture.js';
import { type SandboxFixture, withSandbox } from '../../support/sandbox.js';
import { decodeClaims, ssoHelpers } from '../sandbox/sso-fixture.js';

/** The partner's server side: mint per request, uncached, never logged; the example page around it. */
describe('embed server side: init-token endpoint and example parent page', () => {
  const logs = captureLogs();
  let sb: SandboxFixture;
  let client: PartnerClient;
  let parent: ExampleParent;
  let stranger: ExampleParent;
  let userId: number;

  beforeAll(async () => {
    sb = await withSandbox({ app: {} });
    const { sandbox } = sb;
    client = new PartnerClient(
      {
        baseUrl: sandbox.url,
        authUrl: sandbox.authUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
      },
      { logger: logs.logger },
    );
    userId = ssoHelpers(sb).firstUser(1001).id;
    const common = { client, accountId: 1001, appUrl: sandbox.app?.url ?? '', logger: logs.logger };
    parent = await startExampleParent({ ...common, userId });
    stranger = await startExampleParent({ ...common, userId: 999_999 });
  });
  afterAll(async () => {
    await Promise.all([parent.close(), stranger.close()]);
    await client.close();
    await sb.close();
  });

  const mint = (at: ExampleParent) => fetch(new URL('/init-token', at.url), { method: 'POST' });

  it('mints a fresh token on every request, answered with Cache-Control: no-store', async () => {
    const answers = [await mint(parent), await mint(parent)];
    const tokens: string[] = [];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
      const body = (await res.json()) as { initToken: string; expiresIn: number; expiresAt: string };
      expect(body.expiresIn).toBe(60);
      expect(decodeClaims(body.initToken)).toMatchObject({
        sub: String(userId),
        accountId: 1001,
        aud: 'embedded-app',
      });
      tokens.push(body.initToken);
    }
    expect(tokens[0]).not.toBe(tokens[1]);
    const logged = logs.lines.join('\n');
    expect(logged).toContain('init token minted');
    for (const token of tokens) expect(logged).not.toContain(token.split('.')[2]);
  });

  it("answers a refusal of the service with 502 and the service's code, never a token", async () => {
    const res = await mint(stranger);
    expect(res.status).toBe(502);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      error: 'USER_NOT_FOUND',
      message: 'The service did not mint an init token',
    });
  });

  it('serves the page with a CSP that frames only the app origin, and the helper modules', async () => {
    const page = await fetch(parent.url);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`frame-src ${sb.sandbox.app?.origin}`);
    expect(policy).toContain("script-src 'self'");
    expect(await page.text()).toContain(`"appUrl":"${sb.sandbox.app?.url}"`);
    for (const [path, text] of [
      ['/embed.js', 'export function embedService'],
      ['/demo-page.js', "from './embed.js'"],
    ] as const) {
      const res = await fetch(new URL(path, parent.url));
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await res.text()).toContain(text);
    }
    expect((await fetch(new URL('/init-token', parent.url))).status).toBe(404);
    const crossSite = await fetch(new URL('/init-token', parent.url), {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });
});
