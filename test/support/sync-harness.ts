import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '../../src/client/index.js';
import { loadFeedFile } from '../../src/config/load-feed.js';
import { MemoryGate } from '../../src/gate/memory-gate.js';
import { createLogger } from '../../src/logging/logger.js';
import { type FeedRunResult, runFeed } from '../../src/runner/in-process.js';
import { createFaultInjector } from '../../src/sandbox/faults.js';
import type { FaultConfigInput } from '../../src/sandbox/faults-config.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import { FakeClock } from './fake-clock.js';

/**
 * An in-process sync against a real sandbox on loopback, with fake time (retry and Retry-After
 * waits pass instantly) and a fresh report folder. Faults can be changed between runs.
 */
export async function syncHarness(faults: FaultConfigInput = {}) {
  const injector = createFaultInjector(faults);
  const sandbox: SandboxHandle = await startSandbox({ faults: injector });
  const clock = new FakeClock(Date.now());
  const gate = new MemoryGate(clock);
  const logger = createLogger({ level: 'silent' });
  const scope = 'partner:sandbox-client';
  const client = new PartnerClient(
    {
      baseUrl: sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
    },
    {
      clock,
      logger,
      hooks: {
        beforeRequest: (start) => gate.waitUntilOpen(scope, start.signal),
        onRateLimited: (info) => void gate.pause(scope, clock.now() + info.retryAfterMs),
      },
    },
  );
  const reportDir = mkdtempSync(join(tmpdir(), 'erp-bridge-reports-'));

  async function run(
    feedFile: string,
    dryRun = false,
  ): Promise<FeedRunResult & { outcomes: RecordOutcome[] }> {
    const loaded = await loadFeedFile(feedFile);
    const result = await runFeed(loaded, dryRun, { client, clock, logger, gate, reportDir });
    const outcomes = readFileSync(result.files.ndjson, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordOutcome);
    return { ...result, outcomes };
  }

  /** Every transaction stored for the account, across its bank accounts. */
  function transactions(accountId: number) {
    const account = sandbox.runtime.state.accounts.get(accountId);
    return [...(account?.transactions.values() ?? [])].flatMap((byId) => [...byId.values()]);
  }

  return {
    sandbox,
    clock,
    injector,
    client,
    reportDir,
    run,
    transactions,
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}
