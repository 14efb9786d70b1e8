import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Attempt,
  type ClientHooks,
  combineHooks,
  PartnerClient,
  type Retry,
} from '../../../src/client/index.js';
import { createLogger } from '../../../src/logging/logger.js';
import { metricsHooks } from '../../../src/ops/client-metrics.js';
import { createMetrics, type Metrics } from '../../../src/ops/metrics.js';
import { createFaultInjector } from '../../../src/sandbox/faults.js';
import { FaultConfig, type FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import type { Clock } from '../../../src/time/clock.js';
import { rejection } from '../../support/client-fixture.js';
import { parseExposition, total } from '../../support/prometheus.js';

/** Retry and Retry-After waits pass at once; the waits themselves are tested in test/integration/client. */
const instant: Clock = { now: () => Date.now(), sleep: async () => {} };
const faults = createFaultInjector({});
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ faults });
});
afterAll(() => sandbox.close());

let client: PartnerClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  sandbox.runtime.reset();
  faults.configure(FaultConfig.parse({}));
});

/** A client of the sandbox whose hooks note every attempt and retry and count into fresh metrics. */
function observedClient(fault: FaultConfigInput, extra: ClientHooks[] = []) {
  faults.configure(FaultConfig.parse(fault));
  const metrics = createMetrics({ processMetrics: false });
  const attempts: Attempt[] = [];
  const retries: Retry[] = [];
  client = new PartnerClient(
    {
      baseUrl: sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    },
    {
      clock: instant,
      logger: createLogger({ level: 'silent' }),
      hooks: combineHooks(
        ...extra,
        { onAttempt: (a) => attempts.push(a), onRetry: (r) => retries.push(r) },
        metricsHooks(metrics),
      ),
    },
  );
  return { client, metrics, attempts, retries };
}

const scrape = async (metrics: Metrics) => parseExposition(await metrics.registry.metrics());

describe('client hooks: every attempt and every retry, counted into the metrics', () => {
  it('hears 500, 500, a dropped connection and the 200 that follows; three retries', async () => {
    const { client, metrics, attempts, retries } = observedClient({
      script: [
        { op: 'listScenarios', fault: '500', times: 2 },
        { op: 'listScenarios', fault: 'reset', times: 1 },
      ],
    });
    await client.listScenarios(1001);
    expect(attempts.map((a) => [a.operation, a.accountId, a.attempt, a.status])).toEqual([
      ['listScenarios', 1001, 1, 500],
      ['listScenarios', 1001, 2, 500],
      ['listScenarios', 1001, 3, 'network'],
      ['listScenarios', 1001, 4, 200],
    ]);
    expect(retries.map((r) => [r.attempt, r.status, r.delayMs])).toEqual([
      [1, 500, 1_000],
      [2, 500, 2_000],
      [3, 'network', 4_000],
    ]);
    const samples = await scrape(metrics);
    const requests = (status: string) =>
      total(samples, 'erp_bridge_http_requests_total', { operation: 'listScenarios', status });
    expect([requests('500'), requests('network'), requests('200')]).toEqual([2, 1, 1]);
    expect(total(samples, 'erp_bridge_http_retries_total', { operation: 'listScenarios' })).toBe(3);
    expect(total(samples, 'erp_bridge_rate_limit_pauses_total')).toBe(0);
  });

  it('counts a 429 as a pause, not a retry', async () => {
    const { client, metrics, retries } = observedClient({
      script: [{ op: 'listScenarios', fault: '429', times: 1, retryAfterSeconds: 1 }],
    });
    await client.listScenarios(1001);
    expect(retries).toEqual([]);
    const samples = await scrape(metrics);
    expect(total(samples, 'erp_bridge_rate_limit_pauses_total', { operation: 'listScenarios' })).toBe(1);
    expect(total(samples, 'erp_bridge_http_requests_total', { status: '429' })).toBe(1);
    expect(total(samples, 'erp_bridge_http_requests_total', { status: '200' })).toBe(1);
    expect(total(samples, 'erp_bridge_http_retries_total')).toBe(0);
  });

  it('counts the attempt of a write that is not resent (ambiguous) and no retry', async () => {
    const { client, metrics, attempts, retries } = observedClient({
      script: [{ op: 'createTransactionsBulk', fault: '500', times: 1 }],
    });
    const error = await rejection(
      client.createTransactionsBulk(1001, 1, [{ externalId: 'm-1', bookingDate: '2026-01-02', amount: 1 }]),
    );
    expect(error.code).toBe('AMBIGUOUS_WRITE');
    expect(attempts.map((a) => a.status)).toEqual([500]);
    expect(retries).toEqual([]);
    const samples = await scrape(metrics);
    expect(total(samples, 'erp_bridge_http_requests_total', { operation: 'createTransactionsBulk' })).toBe(1);
    expect(total(samples, 'erp_bridge_http_retries_total')).toBe(0);
  });

  it('a throwing hook breaks neither the call nor the hooks after it', async () => {
    const throwing = {
      onAttempt: () => {
        throw new Error('listener bug');
      },
    };
    const { client, metrics, attempts } = observedClient({}, [throwing]);
    await client.listScenarios(1001);
    expect(attempts.map((a) => a.status)).toEqual([200]);
    expect(total(await scrape(metrics), 'erp_bridge_http_requests_total', { status: '200' })).toBe(1);
  });
});
