import type { Redis } from 'ioredis';
import { RedisScript } from '../gate/redis-script.js';
import type { ReconcileLine } from '../sync/reconcile/reconcile.js';
import type { ReconcileReport, ReconcileSummary } from '../sync/reconcile/summary.js';
import type { FleetKeys } from './keys.js';
import { latestField, latestScore, PUT_LATEST_LUA, readLatest } from './latest-of-each.js';
import { deflatedJson, inflatedJson } from './packed-json.js';

/** Lines per stored batch: one deflated list element each (11-21 bytes a line, docs/reconcile.md). */
const BATCH = 1_000;

/**
 * KEYS: the reconcile's summary, the fleet's latest-reconciles hash. ARGV: the summary, the
 * retention ms, then the latest entry's field and score (its value: the summary). One atomic call.
 */
const finishScript = new RedisScript(
  2,
  `${PUT_LATEST_LUA}
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
putLatest(KEYS[2], ARGV[3], ARGV[4], ARGV[1])
return 1
`,
);

/**
 * Fleet reconciles in Redis: per reconcile id its summary and the lines that are NOT equal
 * (missing, different, extra, duplicate, rejected), deflated in batches of 1,000 in a list, in the
 * order the comparison wrote them. Equal lines are only counted (the summary): a bank account of
 * 1,000,000 equal transactions would otherwise put ~13 MB into Redis, per reconcile and for the
 * whole retention, to say "nothing to do".
 * Everything expires with the fleet's run retention.
 */
export class RedisReconcileStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
    private readonly retentionMs: number,
  ) {}

  /**
   * The report of one reconcile job. A replayed job (its worker died) starts over: the lines an
   * earlier attempt stored are dropped first, so none is listed twice. Once `signal` is aborted (the
   * worker shutting down) `finish` stores nothing and throws: a comparison cut short is no verdict,
   * and a waiting `reconcile --fleet` must not print it.
   */
  async report(reconcileId: string, signal?: AbortSignal): Promise<ReconcileReport> {
    const linesKey = this.keys.reconcileLines(reconcileId);
    const summaryKey = this.keys.reconcile(reconcileId);
    await this.redis.del(linesKey, summaryKey);
    let pending: ReconcileLine[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const batch = deflatedJson(pending);
      pending = [];
      await this.redis.multi().rpush(linesKey, batch).pexpire(linesKey, this.retentionMs).exec();
    };
    return {
      line: async (line: ReconcileLine) => {
        if (line.verdict === 'equal') return;
        pending.push(line);
        if (pending.length >= BATCH) await flush();
      },
      finish: async (summary: ReconcileSummary) => {
        signal?.throwIfAborted();
        await flush();
        const text = JSON.stringify(summary);
        await finishScript.call(
          this.redis,
          [summaryKey, this.keys.latestReconciles()],
          [
            text,
            this.retentionMs,
            latestField(summary.accountId, summary.feed),
            latestScore(summary.startedAt),
          ],
        );
      },
    };
  }

  /** The reconcile's summary once its job finished; undefined before, or once expired. */
  async summary(reconcileId: string): Promise<ReconcileSummary | undefined> {
    const text = await this.redis.get(this.keys.reconcile(reconcileId));
    return text ? (JSON.parse(text) as ReconcileSummary) : undefined;
  }

  /**
   * The last finished reconcile of each tenant x feed within retention, as stored (the caller
   * checks them).
   */
  latest(): Promise<unknown[]> {
    return readLatest(this.redis, this.keys.latestReconciles(), Date.now() - this.retentionMs);
  }

  /** The stored (not equal) lines in the order they were written, a batch in memory at a time. */
  async *lines(reconcileId: string): AsyncGenerator<ReconcileLine> {
    const key = this.keys.reconcileLines(reconcileId);
    for (let at = 0; ; at += 10) {
      const batches = await this.redis.lrangeBuffer(key, at, at + 9);
      for (const batch of batches) yield* inflatedJson(batch) as ReconcileLine[];
      if (batches.length < 10) return;
    }
  }
}
