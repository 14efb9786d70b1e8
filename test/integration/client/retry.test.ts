import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert, RateLimited, RequestStart } from '../../../src/client/index.js';
import { API_PATH, type Fixture, problem, rejection, startFixture } from '../../support/client-fixture.js';

const SCENARIOS = `${API_PATH}/scenarios`;
const BULK = `${API_PATH}/bank-account-transactions/bulk`;
const EXISTS = `${API_PATH}/bank-account-transactions/exists`;
const scenarios = { status: 200, json: [{ id: 1, name: 'Base', isBaseCase: true }] };
const bulkOk = {
  status: 200,
  json: {
    success: true,
    message: 'ok',
    createdCount: 1,
    created: [{ externalId: 'a', transactionId: 9, index: 0 }],
    failedCount: 0,
    errors: [],
    skippedCount: 0,
    skipped: [],
  },
};
const tx = { externalId: 'a', bookingDate: '2030-01-01', amount: 10 };
const e500 = { status: 500, json: problem('INTERNAL_ERROR', 'unexpected') };

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

describe('500: retried after 1, 2, then 4 s, then alert', () => {
  it('waits exactly 1 s, 2 s, 4 s, fails after the third retry and raises one alert', async () => {
    const onAlert = vi.fn<(alert: Alert) => void>();
    fx = await startFixture({ hooks: { onAlert } });
    fx.server.always('GET', SCENARIOS, e500);
    const error = await rejection(fx.client.listScenarios(42));
    expect(error).toMatchObject({
      kind: 'service',
      code: 'INTERNAL_ERROR',
      status: 500,
      attempts: 4,
      accountId: 42,
    });
    expect(fx.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(fx.apiRequests()).toHaveLength(4);
    expect(onAlert).toHaveBeenCalledOnce();
    expect(onAlert.mock.calls[0]?.[0]).toMatchObject({
      operation: 'listScenarios',
      accountId: 42,
      code: 'INTERNAL_ERROR',
      status: 500,
      attempts: 4,
    });
    const alerts = fx.logs.entries().filter((e) => e.alert === true);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ level: 'error', operation: 'listScenarios', accountId: 42 });
  });

  it('succeeds when a retry does, without an alert', async () => {
    const onAlert = vi.fn();
    fx = await startFixture({ hooks: { onAlert } });
    fx.server.script('GET', SCENARIOS, e500, e500, scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([1_000, 2_000]);
    expect(onAlert).not.toHaveBeenCalled();
  });

  it('retries the existence check, a read sent as POST', async () => {
    fx = await startFixture();
    fx.server.script('POST', EXISTS, e500, { status: 200, json: { success: true, data: ['a'] } });
    await expect(fx.client.checkTransactionsExist(1, 5, ['a'])).resolves.toEqual([{ externalId: 'a' }]);
    expect(fx.clock.sleeps).toEqual([1_000]);
  });
});

describe('never retried: 400, 401 (after its one renewal), 403, 404, 409, 501', () => {
  it.each([
    [400, 'INVALID_REQUEST'],
    [403, 'ACCOUNT_ACCESS_DENIED'],
    [404, 'ACCOUNT_NOT_FOUND'],
    [409, 'BANK_ACCOUNT_NOT_MODIFIABLE'],
    [501, 'NOT_IMPLEMENTED_BY_PROXY'],
  ])('%i fails at once with the service code', async (status, code) => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, {
      status,
      json: problem(code, 'nope', [{ field: 'x', message: 'y' }]),
    });
    const error = await rejection(fx.client.listScenarios(3));
    expect(error).toMatchObject({
      kind: 'service',
      code,
      status,
      attempts: 1,
      causes: [{ field: 'x', message: 'y' }],
    });
    expect(fx.apiRequests()).toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('401 is sent twice in total (one renewal), then fails', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, { status: 401, json: problem('INVALID_CREDENTIALS') });
    expect((await rejection(fx.client.listScenarios(3))).status).toBe(401);
    expect(fx.apiRequests()).toHaveLength(2);
    expect(fx.clock.sleeps).toEqual([]);
  });
});

describe('429: wait as Retry-After says', () => {
  it('waits delta-seconds and HTTP-dates without using up the 500 retries', async () => {
    const onRateLimited = vi.fn<(info: RateLimited) => void>();
    fx = await startFixture({ hooks: { onRateLimited } });
    const inThirtySeconds = new Date(fx.clock.now() + 1_000 + 7_000 + 2_000 + 30_000).toUTCString();
    fx.server.script(
      'GET',
      SCENARIOS,
      e500,
      { status: 429, headers: { 'retry-after': '7' }, json: problem('RATE_LIMITED') },
      e500,
      // An HTTP-date 30 s after the moment this 429 arrives on the fake clock.
      { status: 429, headers: { 'retry-after': inThirtySeconds }, json: problem('RATE_LIMITED') },
      e500,
      scenarios,
    );
    await expect(fx.client.listScenarios(8)).resolves.toHaveLength(1);
    // Three 500 retries (1, 2, 4 s) still available although two 429s came in between.
    expect(fx.clock.sleeps).toEqual([1_000, 7_000, 2_000, 30_000, 4_000]);
    expect(onRateLimited.mock.calls.map((c) => c[0])).toEqual([
      { operation: 'listScenarios', accountId: 8, scope: 'api:read', retryAfterMs: 7_000 },
      { operation: 'listScenarios', accountId: 8, scope: 'api:read', retryAfterMs: 30_000 },
    ]);
  });

  it('uses the configured default for a missing header and the cap for an absurd one', async () => {
    fx = await startFixture({ settings: { retryAfterDefaultMs: 3_000, retryAfterMaxMs: 60_000 } });
    fx.server.script(
      'GET',
      SCENARIOS,
      { status: 429, json: problem('RATE_LIMITED') },
      { status: 429, headers: { 'retry-after': '999999' }, json: problem('RATE_LIMITED') },
      { status: 429, headers: { 'retry-after': 'whenever' }, json: problem('RATE_LIMITED') },
      scenarios,
    );
    await fx.client.listScenarios(1);
    expect(fx.clock.sleeps).toEqual([3_000, 60_000, 3_000]);
  });

  it('issue 18 item 12: more than 30 consecutive 429s do not fail the call; only the total wait caps it', async () => {
    fx = await startFixture({ settings: { rateLimitMaxTotalWaitMs: 900_000 } });
    const limited = { status: 429, headers: { 'retry-after': '1' }, json: problem('RATE_LIMITED') };
    fx.server.script('GET', SCENARIOS, ...Array.from({ length: 40 }, () => limited), scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual(Array.from({ length: 40 }, () => 1_000));
    expect(fx.apiRequests()).toHaveLength(41);
  });

  it('gives up after rateLimitMaxWaits waits (when set) with RATE_LIMITED and the wait asked for', async () => {
    fx = await startFixture({ settings: { rateLimitMaxWaits: 3 } });
    fx.server.always('GET', SCENARIOS, {
      status: 429,
      headers: { 'retry-after': '2' },
      json: problem('RATE_LIMITED'),
    });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({
      kind: 'rate_limited',
      code: 'RATE_LIMITED',
      status: 429,
      retryAfterMs: 2_000,
    });
    expect(error.message).toMatch(/pause work for this account/);
    expect(fx.clock.sleeps).toEqual([2_000, 2_000, 2_000]);
    expect(fx.apiRequests()).toHaveLength(4);
  });

  it('gives up before the accumulated wait would exceed rateLimitMaxTotalWaitMs', async () => {
    fx = await startFixture({ settings: { rateLimitMaxTotalWaitMs: 250_000 } });
    fx.server.always('GET', SCENARIOS, {
      status: 429,
      headers: { 'retry-after': '100' },
      json: problem('RATE_LIMITED'),
    });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error.code).toBe('RATE_LIMITED');
    expect(fx.clock.sleeps).toEqual([100_000, 100_000]);
  });

  it('gives up on a write too, instead of hanging, and never calls it ambiguous', async () => {
    fx = await startFixture({ settings: { rateLimitMaxWaits: 1 } });
    fx.server.always('POST', BULK, {
      status: 429,
      headers: { 'retry-after': '1' },
      json: problem('RATE_LIMITED'),
    });
    const error = await rejection(fx.client.createTransactionsBulk(1, 5, [tx]));
    expect(error).toMatchObject({ code: 'RATE_LIMITED', ambiguous: false });
    expect(fx.apiRequests()).toHaveLength(2);
  });
});

describe('writes: a 500 or a lost answer is ambiguous, never resent blindly', () => {
  it('raises a 500 on a bulk create as AMBIGUOUS_WRITE without resending', async () => {
    fx = await startFixture();
    fx.server.always('POST', BULK, e500);
    const error = await rejection(fx.client.createTransactionsBulk(11, 5, [tx]));
    expect(error).toMatchObject({
      kind: 'ambiguous_write',
      code: 'AMBIGUOUS_WRITE',
      ambiguous: true,
      status: 500,
      serviceCode: 'INTERNAL_ERROR',
      operation: 'createTransactionsBulk',
      accountId: 11,
    });
    expect(error.message).toMatch(/may or may not have been applied; re-check/);
    expect(fx.apiRequests()).toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('resends a write after a 500 on the 1/2/4 s schedule when the caller opts in', async () => {
    fx = await startFixture();
    fx.server.script('POST', BULK, e500, e500, bulkOk);
    const result = await fx.client.createTransactionsBulk(1, 5, [tx], { retryWrites: true });
    expect(result.createdCount).toBe(1);
    expect(fx.clock.sleeps).toEqual([1_000, 2_000]);
  });

  it('raises a reset connection on a write as AMBIGUOUS_WRITE', async () => {
    fx = await startFixture();
    fx.server.always('POST', BULK, { destroy: true });
    const error = await rejection(fx.client.createTransactionsBulk(1, 5, [tx]));
    expect(error).toMatchObject({ code: 'AMBIGUOUS_WRITE', ambiguous: true, status: undefined });
    expect(fx.apiRequests()).toHaveLength(1);
  });

  it('raises a timeout on a write as AMBIGUOUS_WRITE', async () => {
    fx = await startFixture({ settings: { headersTimeoutMs: 100 } });
    fx.server.always('POST', BULK, { hang: true });
    const error = await rejection(fx.client.createTransactionsBulk(1, 5, [tx]));
    expect(error).toMatchObject({ code: 'AMBIGUOUS_WRITE' });
    expect(error.message).toMatch(/UND_ERR_HEADERS_TIMEOUT/);
    expect(fx.apiRequests()).toHaveLength(1);
  });
});

describe('issue 18 item 12: a 502, 503 or 504 on a read is retried; on a write it is ambiguous', () => {
  it.each([502, 503, 504])('retries a GET answered %i on the 1/2/4 s schedule', async (status) => {
    fx = await startFixture();
    const gateway = { status, json: problem('BAD_GATEWAY', 'proxy') };
    fx.server.script('GET', SCENARIOS, gateway, gateway, scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([1_000, 2_000]);
  });

  it('retries the existence check (a read sent as POST) after a 503', async () => {
    fx = await startFixture();
    fx.server.script(
      'POST',
      EXISTS,
      { status: 503, json: problem('SERVICE_UNAVAILABLE') },
      { status: 200, json: { success: true, data: ['a'] } },
    );
    await expect(fx.client.checkTransactionsExist(1, 5, ['a'])).resolves.toEqual([{ externalId: 'a' }]);
    expect(fx.clock.sleeps).toEqual([1_000]);
  });

  it('fails a read after three retries of 503 with the status', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, { status: 503, json: problem('SERVICE_UNAVAILABLE') });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, attempts: 4 });
    expect(fx.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
  });

  it('never resends a bulk create answered 502: AMBIGUOUS_WRITE at once', async () => {
    fx = await startFixture();
    fx.server.always('POST', BULK, { status: 502, json: problem('BAD_GATEWAY') });
    const error = await rejection(fx.client.createTransactionsBulk(1, 5, [tx]));
    expect(error).toMatchObject({ code: 'AMBIGUOUS_WRITE', ambiguous: true, status: 502 });
    expect(fx.apiRequests()).toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([]);
  });
});

describe('reads: network failures and timeouts are retried like 500', () => {
  it('retries a reset connection and succeeds', async () => {
    fx = await startFixture();
    fx.server.script('GET', SCENARIOS, { destroy: true }, { destroy: true }, scenarios);
    await expect(fx.client.listScenarios(1)).resolves.toHaveLength(1);
    expect(fx.clock.sleeps).toEqual([1_000, 2_000]);
  });

  it('fails with TIMEOUT and an alert after three retries of a hanging read', async () => {
    const onAlert = vi.fn();
    fx = await startFixture({ settings: { headersTimeoutMs: 50 }, hooks: { onAlert } });
    fx.server.always('GET', SCENARIOS, { hang: true });
    const error = await rejection(fx.client.listScenarios(1));
    expect(error).toMatchObject({ kind: 'network', code: 'TIMEOUT', attempts: 4 });
    expect(fx.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(onAlert).toHaveBeenCalledOnce();
  });

  it('retries even a write when the connection was never established (nothing was sent)', async () => {
    const { TestServer } = await import('../../support/http-server.js');
    const closed = await TestServer.start();
    const closedUrl = closed.url;
    await closed.close();
    fx = await startFixture({ settings: { baseUrl: `${closedUrl}${API_PATH}` } });
    const error = await rejection(fx.client.createTransactionsBulk(1, 5, [tx]));
    expect(error).toMatchObject({
      kind: 'network',
      code: 'SERVICE_UNREACHABLE',
      ambiguous: false,
      attempts: 4,
    });
    expect(error.message).toMatch(/check PARTNER_API_URL/);
    expect(fx.clock.sleeps).toEqual([1_000, 2_000, 4_000]);
  });
});

describe('hooks and abort', () => {
  it('asks beforeRequest before every request, with the attempt number and scope', async () => {
    const starts: RequestStart[] = [];
    fx = await startFixture({ hooks: { beforeRequest: (s) => void starts.push(s) } });
    fx.server.script('GET', SCENARIOS, e500, { status: 429, headers: { 'retry-after': '1' } }, scenarios);
    await fx.client.listScenarios(4);
    expect(
      starts.map(({ attempt, operation, accountId, scope, method }) => ({
        attempt,
        operation,
        accountId,
        scope,
        method,
      })),
    ).toEqual(
      [1, 2, 3].map((attempt) => ({
        attempt,
        operation: 'listScenarios',
        accountId: 4,
        scope: 'api:read',
        method: 'GET',
      })),
    );
  });

  it('lets beforeRequest hold the request back (a fleet-wide pause)', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    fx = await startFixture({ hooks: { beforeRequest: () => gate } });
    fx.server.always('GET', SCENARIOS, scenarios);
    const call = fx.client.listScenarios(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fx.server.requests).toHaveLength(0);
    open();
    await expect(call).resolves.toHaveLength(1);
  });

  it('stops waiting for a retry when the signal aborts', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, e500);
    fx.clock.hold();
    const controller = new AbortController();
    const sleeping = fx.clock.nextSleep();
    const call = fx.client.listScenarios(1, { signal: controller.signal });
    await sleeping;
    controller.abort(new Error('shutting down'));
    await expect(call).rejects.toThrow('shutting down');
    fx.clock.release();
    expect(fx.apiRequests()).toHaveLength(1);
  });

  it('aborts a request in flight and does not retry it', async () => {
    fx = await startFixture();
    fx.server.always('GET', SCENARIOS, { hang: true });
    const controller = new AbortController();
    const call = fx.client.listScenarios(1, { signal: controller.signal });
    await vi.waitFor(() => expect(fx.apiRequests()).toHaveLength(1));
    controller.abort(new Error('cancelled by caller'));
    await expect(call).rejects.toThrow('cancelled by caller');
    expect(fx.clock.sleeps).toEqual([]);
  });

  it('sends nothing when the signal is already aborted', async () => {
    fx = await startFixture();
    const controller = new AbortController();
    controller.abort();
    await expect(fx.client.listScenarios(1, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(fx.server.requests).toHaveLength(0);
  });
});
