import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/client/index.js';
import {
  API_PATH,
  CLIENT_SECRET,
  type Fixture,
  problem,
  rejection,
  startFixture,
  TOKEN_PATH,
  tokenReply,
} from '../../support/client-fixture.js';

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

const SCENARIOS = `${API_PATH}/scenarios`;
const TOKENS = ['access-token-1-xyz', 'access-token-2-xyz'];

/** Everything that could leak: the message, the structured form and the cause chain. */
function everythingIn(error: ApiError): string {
  return [error.message, JSON.stringify(error), String(error.stack), JSON.stringify(error.causes)].join('\n');
}

describe('tokens and the client secret never leave the client', () => {
  it('logs each request at debug with operation, method, path, status, duration and tenant, never the token', async () => {
    fx = await startFixture();
    fx.server.script('GET', SCENARIOS, { status: 401, json: problem('INVALID_CREDENTIALS') });
    fx.server.always('GET', SCENARIOS, { json: [] });
    await fx.client.listScenarios(31);
    const requests = fx.logs.entries().filter((e) => e.msg === 'partner api request');
    expect(requests).toHaveLength(2);
    for (const entry of requests) {
      expect(entry).toMatchObject({
        level: 'debug',
        operation: 'listScenarios',
        method: 'GET',
        path: SCENARIOS,
        accountId: 31,
      });
      expect(typeof entry.durationMs).toBe('number');
    }
    expect(requests.map((e) => e.status)).toEqual([401, 200]);
    const all = fx.logs.lines.join('\n');
    for (const secret of [CLIENT_SECRET, ...TOKENS]) expect(all).not.toContain(secret);
  });

  it('keeps secrets out of error messages even when the service echoes them', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, (request) => ({
      status: 400,
      json: problem('INVALID_REQUEST', `bad header ${request.headers.authorization} for ${CLIENT_SECRET}`, [
        { field: 'authorization', message: 'ok' },
      ]),
    }));
    const error = await rejection(fx.client.listScenarios(1));
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toMatch(/bad header Bearer \[REDACTED\] for \[REDACTED\]/);
    for (const secret of [CLIENT_SECRET, ...TOKENS]) expect(everythingIn(error)).not.toContain(secret);
  });

  it('keeps secrets out of token endpoint errors and logs', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.script('POST', TOKEN_PATH, tokenReply(1));
    fx.server.always('POST', TOKEN_PATH, {
      status: 401,
      json: {
        error: 'invalid_client',
        error_description: `secret ${CLIENT_SECRET} and old token ${TOKENS[0]}`,
      },
    });
    fx.server.always('GET', SCENARIOS, { status: 401, json: problem('INVALID_CREDENTIALS') });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error.code).toBe('AUTH_REJECTED');
    for (const secret of [CLIENT_SECRET, ...TOKENS]) {
      expect(everythingIn(error)).not.toContain(secret);
      expect(fx.logs.lines.join('\n')).not.toContain(secret);
    }
  });

  it('keeps the token out of a malformed token response error', async () => {
    fx = await startFixture({ tokens: false });
    fx.server.always('POST', TOKEN_PATH, {
      json: { access_token: TOKENS[0], token_type: 'Bearer', expires_in: 'soon' },
    });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toMatch(/expires_in/);
    expect(everythingIn(error)).not.toContain(TOKENS[0]);
  });
});
