import { describe, expect, it } from 'vitest';
import { chunkOf } from '../../../src/sync/chunk.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import type { SyncClient } from '../../../src/sync/ports.js';
import { type ChunkExecution, runChunk } from '../../../src/sync/run-chunk.js';
import type { RunHandle, StopReason } from '../../../src/sync/run-handle.js';
import { RunStopError } from '../../../src/sync/stop.js';
import { FakeClock } from '../../support/fake-clock.js';
import { captureLogs } from '../../support/log-capture.js';

const chunk = chunkOf<'users'>({
  runId: 'run-1',
  feed: 'users',
  kind: 'users',
  accountId: 1001,
  seq: 1,
  settings: { mode: 'upsert', emptyCellClears: false, mappedFields: ['firstName'] },
  records: [1, 2].map((n) => ({
    file: 'users.csv',
    line: n + 1,
    externalId: `u${n}`,
    derivedId: false,
    payload: {
      externalId: `u${n}`,
      email: `u${n}@example.com`,
      firstName: `F${n}`,
      lastName: `L${n}`,
      role: 'USER',
    },
  })),
});

/** The effects of one chunk's step, in order, as the run, the client and the runner saw them. */
function harness(options: {
  stopped?: StopReason;
  stopReasonThrows?: Error;
  clientThrows?: unknown;
  recordThrows?: number;
}) {
  const effects: string[] = [];
  const logs = captureLogs();
  let recordFailures = options.recordThrows ?? 0;
  const run: RunHandle = {
    runId: 'run-1',
    report: {
      record: async (outcomes) => {
        effects.push(`record ${outcomes.map((o) => o.code ?? o.outcome).join(',')}`);
        if (recordFailures-- > 0) throw new Error('the report store is gone');
      },
      finish: async () => {},
    },
    stopReason: async () => {
      effects.push('stopReason');
      if (options.stopReasonThrows) throw options.stopReasonThrows;
      return options.stopped;
    },
    stop: async (reason) => void effects.push(`stop ${reason.code}`),
  };
  const client = new Proxy({} as SyncClient, {
    get: (_target, name) => async () => {
      effects.push('client');
      // The shared client's logger: its lines carry the chunk only through the log context.
      logs.logger.info({ helper: String(name) }, 'client call');
      throw options.clientThrows;
    },
  });
  const execution = (extra: Partial<ChunkExecution> = {}): ChunkExecution => ({
    run,
    client,
    clock: new FakeClock(),
    logger: logs.logger,
    logContext: { chunk: 1 },
    elapsed: () => 0.5,
    meter: {
      recorded: () => {},
      chunkSynced: (kind, accountId, seconds) => void effects.push(`meter ${kind} ${accountId} ${seconds}`),
    },
    stored: async () => void effects.push('stored'),
    ...extra,
  });
  return { effects, logs, execution };
}
const codes = (outcomes: RecordOutcome[]) => outcomes.map((o) => o.code);
/** The chunk's two records stored with `code`. */
const recorded = (code: string) => `record ${code},${code}`;
/** What follows the store of a chunk's outcomes, whichever way they were settled. */
const afterStore = ['stored', 'meter users 1001 0.5'];

describe("a chunk's one step (sync/run-chunk.ts)", () => {
  it('a stopped run fails the records with its reason and sends nothing', async () => {
    const h = harness({ stopped: { code: 'ACCOUNT_NOT_FOUND', message: 'gone', exitCode: 2 } });
    const outcomes = await runChunk(chunk, h.execution());
    expect(codes(outcomes)).toEqual(['ACCOUNT_NOT_FOUND', 'ACCOUNT_NOT_FOUND']);
    expect(h.effects).toEqual(['stopReason', recorded('ACCOUNT_NOT_FOUND'), ...afterStore]);
  });

  it("an error that dooms the run stops it, inside the chunk's log context, and fails the records", async () => {
    const h = harness({ clientThrows: new RunStopError('ACCESS_DENIED', 'no', 3) });
    const outcomes = await runChunk(chunk, h.execution());
    expect(codes(outcomes)).toEqual(['ACCESS_DENIED', 'ACCESS_DENIED']);
    expect(h.effects).toEqual([
      'stopReason',
      'client',
      'stop ACCESS_DENIED',
      recorded('ACCESS_DENIED'),
      ...afterStore,
    ]);
    const line = (msg: string) => h.logs.entries().find((e) => e.msg === msg);
    expect(line('client call')?.chunk).toBe(1);
    expect(line('run stopped: no')?.chunk).toBe(1);
  });

  it('any other error fails every record UNEXPECTED_ERROR, recorded once, after asking the runner', async () => {
    // A strategy settles its own records' errors (chunk-outcomes.ts): this one is the run's.
    const h = harness({ stopReasonThrows: new TypeError('a bug') });
    const outcomes = await runChunk(
      chunk,
      h.execution({ takeOver: async () => void h.effects.push('takeOver') as undefined }),
    );
    expect(codes(outcomes)).toEqual(['UNEXPECTED_ERROR', 'UNEXPECTED_ERROR']);
    expect(outcomes[0]?.message).toBe('a bug');
    expect(h.effects).toEqual(['stopReason', 'takeOver', recorded('UNEXPECTED_ERROR'), ...afterStore]);
    // Written outside the chunk's log context (its logger carries the chunk in the runners).
    const line = h.logs.entries().find((e) => e.msg === 'chunk failed unexpectedly');
    expect(line).toMatchObject({ level: 'error' });
    expect(line?.chunk).toBeUndefined();
  });

  it("a chunk the runner takes over keeps the runner's outcomes, which it stored itself", async () => {
    const h = harness({ stopReasonThrows: new Error('aborted') });
    const own: RecordOutcome[] = [];
    const outcomes = await runChunk(chunk, h.execution({ takeOver: async () => own }));
    expect(outcomes).toBe(own);
    expect(h.effects).toEqual(['stopReason', ...afterStore]);
  });

  it('outcomes that fail to be stored fail the records unexpectedly, stored again', async () => {
    const h = harness({ stopped: { code: 'STOPPED', message: 'stop', exitCode: 1 }, recordThrows: 1 });
    const outcomes = await runChunk(chunk, h.execution());
    expect(codes(outcomes)).toEqual(['UNEXPECTED_ERROR', 'UNEXPECTED_ERROR']);
    expect(h.effects).toEqual([
      'stopReason',
      recorded('STOPPED'),
      recorded('UNEXPECTED_ERROR'),
      ...afterStore,
    ]);
  });
});
