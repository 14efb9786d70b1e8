import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { MemoryGate } from '../../../src/gate/memory-gate.js';
import { runFeed } from '../../../src/in-process/runner.js';
import { createLogger } from '../../../src/logging/logger.js';
import { metricsHooks } from '../../../src/ops/client-metrics.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { syncMeter } from '../../../src/ops/sync-meter.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import { systemClock } from '../../../src/time/clock.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { parseExposition, total } from '../../support/prometheus.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('metrics of the in-process runner (what `sync` could expose)', () => {
  it('counts records by outcome, kind and tenant, the requests and every chunk', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const client = new PartnerClient(
      {
        baseUrl: sandbox.url,
        authUrl: sandbox.authUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
      },
      { hooks: metricsHooks(metrics) },
    );
    const exp = transactionsExport({ rows: 2_100, name: 'sync-metrics', concurrency: 2 });
    try {
      const { summary } = await runFeed(await loadFeedFile(exp.feedFile), false, {
        client,
        clock: systemClock,
        logger: createLogger({ level: 'silent' }),
        gate: new MemoryGate(systemClock),
        reportDir: mkdtempSync(join(tmpdir(), 'erp-bridge-sync-metrics-')),
        meter: syncMeter(metrics),
      });
      const samples = parseExposition(await metrics.registry.metrics());
      expect(summary.counts).toMatchObject({
        created: exp.externalIds.length,
        rejected: exp.invalidLines.length,
        skipped: exp.excludedLines.length,
      });
      for (const outcome of ['created', 'updated', 'skipped', 'rejected', 'failed'] as const)
        expect(
          total(samples, 'erp_bridge_records_total', { outcome, kind: 'transactions', tenant: '1001' }),
          outcome,
        ).toBe(summary.counts[outcome]);
      const chunks = { kind: 'transactions', tenant: '1001' };
      expect(total(samples, 'erp_bridge_chunk_duration_seconds_count', chunks)).toBe(3);
      expect(total(samples, 'erp_bridge_http_requests_total', { operation: 'createTransactionsBulk' })).toBe(
        3,
      );
    } finally {
      await client.close();
    }
  });
});
