import { afterEach, describe, expect, it } from 'vitest';
import {
  API_PATH,
  CLIENT_SECRET,
  type Fixture,
  rejection,
  startFixture,
  TOKEN_PATH,
  tokenReply,
} from '../../support/client-fixture.js';
import { TestServer } from '../../support/http-server.js';

const SCENARIOS = `${API_PATH}/scenarios`;
const scenarios = { status: 200, json: [{ id: 1, name: 'Base', isBaseCase: true }] };

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

describe('token acquisition', () => {
  it('posts the client credentials form-encoded to {auth_url}/oauth2/token and sends the bearer token', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, scenarios);
    await fx.client.listScenarios(1);
    const [tokenRequest] = fx.server.requestsTo('POST', TOKEN_PATH);
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-id-1',
      client_secret: CLIENT_SECRET,
    });
    expect(fx.apiRequests()[0]?.headers.authorization).toBe('Bearer access-token-1-xyz');
  });

  it('shares one in-flight token request between concurrent callers of many tenants', async () => {
    fx = await startFixture({ tokens: false });
    let issued = 0;
    fx.server.always('POST', TOKEN_PATH, async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return tokenReply(++issued);
    });
    fx.server.always('GET', SCENARIOS, scenarios);
    await Promise.all(Array.from({ length: 20 }, (_, i) => fx.client.listScenarios(100 + (i % 4))));
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(1);
    expect(new Set(fx.apiRequests().map((r) => r.headers.authorization))).toEqual(
      new Set(['Bearer access-token-1-xyz']),
    );
    expect(new Set(fx.apiRequests().map((r) => r.headers['x-account-id']))).toEqual(
      new Set(['100', '101', '102', '103']),
    );
  });

  it('reuses the token until renewMargin before expires_in, then renews before sending', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, scenarios);
    await fx.client.listScenarios(1);
    fx.clock.advance(3_539_000); // 3600 s - 60 s margin - 1 s
    await fx.client.listScenarios(1);
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(1);
    fx.clock.advance(2_000);
    await fx.client.listScenarios(1);
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(2);
    expect(fx.apiRequests().map((r) => r.headers.authorization)).toEqual([
      'Bearer access-token-1-xyz',
      'Bearer access-token-1-xyz',
      'Bearer access-token-2-xyz',
    ]);
  });

  it('renews at half-life when the margin is longer than the token lives', async () => {
    fx = await startFixture({ tokens: false, settings: { tokenRenewMarginMs: 60_000 } });
    let issued = 0;
    fx.server.always('POST', TOKEN_PATH, () => tokenReply(++issued, 30));
    fx.server.always('GET', SCENARIOS, scenarios);
    await fx.client.listScenarios(1);
    fx.clock.advance(14_000);
    await fx.client.listScenarios(1);
    expect(issued).toBe(1);
    fx.clock.advance(2_000);
    await fx.client.listScenarios(1);
    expect(issued).toBe(2);
  });

  it('on a 401 renews the token once and sends the request once more', async () => {
    fx = await startFixture();
    fx.server.script(
      'GET',
      SCENARIOS,
      { status: 401, json: { error: 'INVALID_CREDENTIALS', message: 'expired' } },
      scenarios,
    );
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(2);
    expect(fx.apiRequests().map((r) => r.headers.authorization)).toEqual([
      'Bearer access-token-1-xyz',
      'Bearer access-token-2-xyz',
    ]);
  });

  it('fails after a second 401: one renewal and one resend only', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, {
      status: 401,
      json: { error: 'INVALID_CREDENTIALS', message: 'no' },
    });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({ kind: 'service', code: 'INVALID_CREDENTIALS', status: 401, attempts: 2 });
    expect(error.message).toMatch(/PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET/);
    expect(fx.apiRequests()).toHaveLength(2);
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(2);
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('renews once for many concurrent calls refused with the same stale token', async () => {
    fx = await startFixture();
    // The service refuses the first token (as if it had been revoked) and accepts any later one.
    fx.server.always('GET', SCENARIOS, (request) =>
      request.headers.authorization === 'Bearer access-token-1-xyz'
        ? { status: 401, json: { error: 'INVALID_CREDENTIALS', message: 'expired' } }
        : scenarios,
    );
    await Promise.all(Array.from({ length: 5 }, () => fx.client.listScenarios(1)));
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(2);
    expect(fx.apiRequests()).toHaveLength(10);
  });

  it('maps refused credentials to AUTH_REJECTED without repeating the secret', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.always('POST', TOKEN_PATH, {
      status: 401,
      json: { error: 'invalid_client', error_description: `unknown client secret ${CLIENT_SECRET}` },
    });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({
      kind: 'auth',
      code: 'AUTH_REJECTED',
      status: 401,
      serviceCode: 'invalid_client',
    });
    expect(error.message).toMatch(
      /refused the client credentials .*check PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET/,
    );
    expect(error.message).not.toContain(CLIENT_SECRET);
    expect(fx.server.requestsTo('POST', TOKEN_PATH)).toHaveLength(1);
    expect(fx.apiRequests()).toHaveLength(0);
  });

  it('maps 400 invalid_grant to AUTH_REJECTED and 400 unsupported_grant_type to AUTH_FAILED', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.script(
      'POST',
      TOKEN_PATH,
      { status: 400, json: { error: 'invalid_grant' } },
      { status: 400, json: { error: 'unsupported_grant_type' } },
    );
    expect((await rejection(fx.client.listScenarios(1))).code).toBe('AUTH_REJECTED');
    expect((await rejection(fx.client.listScenarios(1))).code).toBe('AUTH_FAILED');
  });

  it('retries a 500 from the token endpoint after 1 s', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.script('POST', TOKEN_PATH, { status: 500, text: 'boom' }, tokenReply(1));
    fx.server.always('GET', SCENARIOS, scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([1_000]);
  });

  it("follows the client's retry policy (delays and statuses) on the token endpoint too", async () => {
    fx = await startFixture({
      tokens: false,
      retryPolicy: { delaysMs: [50, 60], retryStatuses: [500, 503] },
    });
    fx.server.script(
      'POST',
      TOKEN_PATH,
      { status: 503, text: 'busy' },
      { status: 500, text: 'boom' },
      tokenReply(1),
    );
    fx.server.always('GET', SCENARIOS, scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([50, 60]);
  });

  it('reports an unreachable authorization server as AUTH_UNREACHABLE after 1/2/4 s retries', async () => {
    fx = await startFixture();
    const closed = await TestServer.start();
    const closedUrl = closed.url;
    await closed.close();
    const { PartnerClient } = await import('../../../src/client/index.js');
    const client = new PartnerClient(
      {
        baseUrl: `${fx.server.url}${API_PATH}`,
        authUrl: closedUrl,
        clientId: 'c',
        clientSecret: CLIENT_SECRET,
      },
      { clock: fx.clock, logger: fx.logs.logger },
    );
    try {
      const error = await rejection(client.listScenarios(1));
      expect(error).toMatchObject({ kind: 'auth', code: 'AUTH_UNREACHABLE' });
      expect(error.message).toMatch(/cannot reach the authorization server .*check PARTNER_AUTH_URL/);
      expect(fx.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
      const errors = fx.logs.lines.filter((line) => JSON.parse(line).level === 'error');
      expect(errors).toHaveLength(1);
      // An expected failure: what happened and what to do, without a stack trace.
      expect(JSON.parse(errors[0] ?? '{}')).toMatchObject({
        alert: true,
        code: 'AUTH_UNREACHABLE',
        attempts: 4,
        message: expect.stringMatching(/check PARTNER_AUTH_URL/),
      });
      expect(errors[0]).not.toMatch(/"stack"|\\n\s+at /);
    } finally {
      await client.close();
    }
  });

  it('reports a 200 without a token as AUTH_FAILED naming the missing field', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.always('POST', TOKEN_PATH, { status: 200, json: { token_type: 'Bearer', expires_in: 3600 } });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({ code: 'AUTH_FAILED' });
    expect(error.message).toMatch(/access_token/);
  });
});
