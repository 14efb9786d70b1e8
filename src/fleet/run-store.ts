import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { RedisScript } from '../gate/redis-script.js';
import { OrderedSpill, reportOrder } from '../report-files/ordered-spill.js';
import type { MappedRecord } from '../sources/record.js';
import { keptOutcomes, type RecordOutcome } from '../sync/outcome.js';
import type { AccountStop } from '../sync/ports.js';
import type { RunSummary } from '../sync/report/summary.js';
import type { RunHandle, StopReason } from '../sync/run-handle.js';
import { contentHash, type FirstSeen, keyHashes, runKey } from '../sync/seen-ids.js';
import type { FleetKeys } from './keys.js';
import { latestField, latestScore, PUT_LATEST_LUA, readLatest, readScored } from './latest-of-each.js';
import { deflatedJson, inflatedJson } from './packed-json.js';

/**
 * KEYS: the run's first-sightings hash. ARGV: retention ms, then field and value per record.
 * Sets each field that is not there; answers index (0-based) and stored value for each that was.
 */
const claimScript = new RedisScript(
  1,
  `
local key = KEYS[1]
local out = {}
for i = 2, #ARGV, 2 do
  if redis.call('HSETNX', key, ARGV[i], ARGV[i + 1]) == 0 then
    out[#out + 1] = (i - 2) / 2
    out[#out + 1] = redis.call('HGET', key, ARGV[i])
  end
end
redis.call('PEXPIRE', key, ARGV[1])
return out
`,
);

/**
 * KEYS: the run's hash, the fleet's latest-runs hash, its runs-under-way hash. ARGV: the summary,
 * the latest entry's field, score and value, then the run's under-way field. The summary is stored
 * unless one is (a replayed finish keeps the one the feed alerts judged), and only then the tenant
 * x feed's latest entry; the run is no longer under way either way. One atomic call.
 */
const finishScript = new RedisScript(
  3,
  `${PUT_LATEST_LUA}
redis.call('HDEL', KEYS[3], ARGV[5])
if redis.call('HSETNX', KEYS[1], 'summary', ARGV[1]) == 1 then
  putLatest(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
  return 1
end
return 0
`,
);

/** A run's field in the runs-under-way hash (keys.runningRuns). */
const runningField = (feed: string, runId: string) => `${feed}\u0000${runId}`;

/** A run under way, as the console's overview shows it. */
export interface RunningRun {
  feed: string;
  runId: string;
  accountId: number;
  startedAt: number;
}

/**
 * What the console's overview shows of a tenant x feed's last run: the summary without its first
 * errors, statement warnings and every file but the last (a run page reads the full summary).
 */
function latestRunEntry(summary: RunSummary): object {
  const { firstErrors: _errors, interrupted: _interrupted, waiting: _waiting, files, ...rest } = summary;
  const last = files.at(-1);
  return { ...rest, files: last ? [{ path: last.path, records: last.records }] : [] };
}

/** What is known of a fleet run before it finishes. */
export interface RunMeta {
  runId: string;
  feed: string;
  kind: string;
  accountId: number;
  file: string;
  sha256: string;
  dryRun: boolean;
  startedAt: string;
  /** Set for runs that retry only the transiently failed lines of an earlier run. */
  retryOf?: string;
  /** Set for runs of only the lines a fleet reconcile found missing or different (its id). */
  repairOf?: string;
}

/** A run's fields as its end reads them (RedisRunStore.finishing). */
export interface RunFields {
  meta: RunMeta | undefined;
  summary: RunSummary | undefined;
  stop: StopReason | undefined;
  wouldSend: number;
  judged: boolean;
}

export interface RunListing {
  meta: RunMeta;
  summary?: RunSummary;
}

/**
 * Runs of the fleet in Redis, with the same report model as `erp-bridge sync`.
 *
 * Outcomes are stored in batches, one hash field per batch, named by who produced it (the import,
 * or chunk N) and a counter: a job that runs again after a crash writes the same fields again
 * instead of adding lines, so every record is in the report exactly once. Batches are deflated
 * (about 30 bytes a record). Everything of a run expires with the retention period.
 */
export class RedisRunStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
    private readonly retentionMs: number,
  ) {}

  async create(meta: RunMeta): Promise<void> {
    const score = Date.parse(meta.startedAt);
    await this.redis
      .multi()
      .hset(this.keys.run(meta.runId), 'meta', JSON.stringify(meta))
      .pexpire(this.keys.run(meta.runId), this.retentionMs)
      .zadd(this.keys.runs(), score, meta.runId)
      .zadd(this.keys.runsOfFeed(meta.feed), score, meta.runId)
      .hset(this.keys.runningRuns(), runningField(meta.feed, meta.runId), `${score} ${meta.accountId}`)
      .exec();
  }

  /**
   * The run as one job sees it; `scope` names the job's batches (e.g. `chunk:7`). `onStored` hears
   * each batch that was not stored before (metrics): a replayed job rewriting its batches is not
   * counted twice.
   */
  handle(runId: string, scope: string, onStored?: (outcomes: readonly RecordOutcome[]) => void): RunHandle {
    let batch = 0;
    return {
      runId,
      report: {
        record: async (outcomes: readonly RecordOutcome[]) => {
          if (outcomes.length === 0) return;
          if (await this.putBatch(runId, `${scope}:${batch++}`, outcomes)) onStored?.(outcomes);
        },
        finish: (summary: RunSummary) => this.finish(summary),
      },
      stopReason: () => this.stopReason(runId),
      stop: (reason: StopReason) => this.stop(runId, reason),
      wouldSend: async (records: readonly MappedRecord[]) => {
        await this.redis.hincrby(this.keys.run(runId), 'wouldSend', records.length);
      },
      claimExternalIds: (kind: string, records: readonly MappedRecord[]) =>
        this.claimExternalIds(runId, kind, records),
      accountStops: {
        stopped: async (account) => {
          const text = await this.redis.hget(this.keys.run(runId), `accountStop:${account}`);
          return text ? (JSON.parse(text) as AccountStop) : undefined;
        },
        // HSETNX: of the workers that meet the stop, one is first (and raises the alert).
        stop: async (account, reason) =>
          (await this.redis.hsetnx(
            this.keys.run(runId),
            `accountStop:${account}`,
            JSON.stringify(reason),
          )) === 1,
      },
    };
  }

  /**
   * The fleet's run-wide first sightings (docs/once-only.md): one hash per run, field = the 64-bit
   * hash of kind and externalId (16 hex digits, not the id: a million records stay ~100 MB less),
   * value = the first's line, content hash and file. One script call per chunk sets each field
   * unless it exists (HSETNX) and answers only for the fields that existed, with their values:
   * whoever set the field first is the first, across every import job and worker of the run. The
   * same line claiming again (a replayed import) is still the first. Expires with the run.
   * (A pipeline of HSETNX + HGET per record cost the importer ~12 µs of ioredis per record.)
   */
  async claimExternalIds(
    runId: string,
    kind: string,
    records: readonly MappedRecord[],
  ): Promise<(FirstSeen | undefined)[]> {
    if (records.length === 0) return [];
    const args: (string | number)[] = [this.retentionMs];
    const contents = records.map(contentHash);
    records.forEach((record, i) => {
      const [a, b] = keyHashes(runKey(kind, record));
      args.push(
        `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`,
        `${record.line}\t${contents[i]}\t${record.file}`,
      );
    });
    const reply = await claimScript.call(this.redis, [this.keys.runIds(runId)], args);
    const found: (FirstSeen | undefined)[] = new Array(records.length).fill(undefined);
    const pairs = reply as (number | string)[];
    for (let i = 0; i < pairs.length; i += 2) {
      const at = Number(pairs[i]);
      const record = records[at] as MappedRecord;
      const [line, content, ...file] = String(pairs[i + 1]).split('\t');
      const first = { file: file.join('\t'), line: Number(line) };
      if (first.file === record.file && first.line === record.line) continue;
      found[at] = { ...first, sameContent: Number(content) === contents[at] };
    }
    return found;
  }

  /** Whether a job of this scope already stored outcomes (a replayed import then skips the chunk). */
  async hasBatch(runId: string, scope: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.runOutcomes(runId), `${scope}:0`)) === 1;
  }

  /** Stores one batch; true when the field is new (HSET counts the fields it added). */
  private async putBatch(runId: string, field: string, outcomes: readonly RecordOutcome[]): Promise<boolean> {
    const key = this.keys.runOutcomes(runId);
    const replies = await this.redis
      .multi()
      .hset(key, field, deflatedJson(keptOutcomes(outcomes)))
      .pexpire(key, this.retentionMs)
      .exec();
    const [error, added] = replies?.[0] ?? [];
    if (error) throw error;
    return added === 1;
  }

  async stopReason(runId: string): Promise<StopReason | undefined> {
    const text = await this.redis.hget(this.keys.run(runId), 'stop');
    return text ? (JSON.parse(text) as StopReason) : undefined;
  }

  async stop(runId: string, reason: StopReason): Promise<void> {
    await this.redis.hsetnx(this.keys.run(runId), 'stop', JSON.stringify(reason));
  }

  /**
   * The run's account once its import job resolved the feed's `accountExternalId` (the producer,
   * which does not ask the service, recorded 0), so `runs` names the tenant.
   */
  async setAccount(runId: string, accountId: number): Promise<void> {
    const meta = await this.meta(runId);
    if (!meta || meta.accountId === accountId) return;
    const running = runningField(meta.feed, runId);
    // The under-way entry follows, unless the run finished already (then it has none).
    const stillRunning = (await this.redis.hexists(this.keys.runningRuns(), running)) === 1;
    const update = this.redis
      .multi()
      .hset(this.keys.run(runId), 'meta', JSON.stringify({ ...meta, accountId }));
    if (stillRunning)
      update.hset(this.keys.runningRuns(), running, `${Date.parse(meta.startedAt)} ${accountId}`);
    await update.exec();
  }

  async meta(runId: string): Promise<RunMeta | undefined> {
    const text = await this.redis.hget(this.keys.run(runId), 'meta');
    return text ? (JSON.parse(text) as RunMeta) : undefined;
  }

  /**
   * What the run's end asks first (meta, the stored summary, the stop, the would-send count, whether
   * it was judged), read in one round trip instead of five: the fleet's finishing pass (run-port.ts).
   */
  async finishing(runId: string): Promise<RunFields> {
    const [meta, summary, stop, wouldSend, judged] = await this.redis.hmget(
      this.keys.run(runId),
      'meta',
      'summary',
      'stop',
      'wouldSend',
      'judged',
    );
    return {
      meta: meta ? (JSON.parse(meta) as RunMeta) : undefined,
      summary: summary ? (JSON.parse(summary) as RunSummary) : undefined,
      stop: stop ? (JSON.parse(stop) as StopReason) : undefined,
      wouldSend: Number(wouldSend ?? 0),
      judged: judged !== null,
    };
  }

  async summary(runId: string): Promise<RunSummary | undefined> {
    const text = await this.redis.hget(this.keys.run(runId), 'summary');
    return text ? (JSON.parse(text) as RunSummary) : undefined;
  }

  async wouldSendCount(runId: string): Promise<number> {
    return Number((await this.redis.hget(this.keys.run(runId), 'wouldSend')) ?? 0);
  }

  /** Every outcome of a run, batch by batch (in no particular order), in line order within each batch. */
  async *outcomes(runId: string): AsyncGenerator<RecordOutcome> {
    for await (const batch of this.batches(runId)) yield* batch;
  }

  /**
   * Every outcome of a run in report order (line order), for `erp-bridge report`: batches finish in
   * any order, so they are read once (kept deflated, ~30 bytes a record) and put in order of their
   * first line, then fed to the ordered spill beside `spillPath`, which merges what still overlaps
   * with bounded memory (reporting/ordered-spill.ts). Pre-sorted, the spill holds few sorted runs.
   * Without `spillPath` the spill goes to a temporary folder of its own, removed once read.
   */
  async *outcomesInOrder(runId: string, spillPath?: string): AsyncGenerator<RecordOutcome> {
    const stored: { first: RecordOutcome; deflated: Buffer }[] = [];
    for await (const deflated of this.deflatedBatches(runId)) {
      const [first] = inflated(deflated);
      if (first) stored.push({ first, deflated });
    }
    stored.sort((a, b) => reportOrder(a.first, b.first));
    const spillDir = spillPath ? undefined : await mkdtemp(join(tmpdir(), 'erp-bridge-outcomes-'));
    try {
      const spill = new OrderedSpill(spillPath ?? join(spillDir as string, 'outcomes.spill'));
      for (const { deflated } of stored) await spill.add(inflated(deflated));
      yield* spill.drain();
    } finally {
      if (spillDir) await rm(spillDir, { recursive: true, force: true });
    }
  }

  private async *batches(runId: string): AsyncGenerator<RecordOutcome[]> {
    for await (const deflated of this.deflatedBatches(runId)) yield inflated(deflated);
  }

  private async *deflatedBatches(runId: string): AsyncGenerator<Buffer> {
    const key = this.keys.runOutcomes(runId);
    let cursor = '0';
    do {
      const [next, entries] = await this.redis.hscanBuffer(key, cursor, 'COUNT', 100);
      cursor = next.toString();
      for (let i = 1; i < entries.length; i += 2) {
        const batch = entries[i];
        if (batch) yield batch;
      }
    } while (cursor !== '0');
  }

  /**
   * Stores the run's summary unless one is stored: a replayed finishing job (sync/run/finish-run.ts)
   * keeps the summary the feed alerts judged. The tenant x feed's latest entry (the console's
   * overview) is written with it.
   */
  async finish(summary: RunSummary): Promise<void> {
    await finishScript.call(
      this.redis,
      [this.keys.run(summary.runId), this.keys.latestRuns(), this.keys.runningRuns()],
      [
        JSON.stringify(summary),
        latestField(summary.accountId, summary.feed),
        latestScore(summary.startedAt),
        JSON.stringify(latestRunEntry(summary)),
        runningField(summary.feed, summary.runId),
      ],
    );
  }

  /**
   * The runs under way (created, not finished), oldest first. Entries older than the retention are
   * dropped (their runs expired unfinished: a run's jobs lost with a flushed queue).
   */
  async running(): Promise<RunningRun[]> {
    const key = this.keys.runningRuns();
    const runs: RunningRun[] = [];
    const unreadable: string[] = [];
    for (const { field, score, text } of await readScored(this.redis, key, Date.now() - this.retentionMs)) {
      const [feed = '', runId = ''] = field.split('\u0000');
      const accountId = Number(text);
      // An entry not of this shape is no run this version can show: dropped like an expired one.
      if (score === undefined || !Number.isInteger(accountId)) unreadable.push(field);
      else runs.push({ feed, runId, accountId, startedAt: score });
    }
    if (unreadable.length > 0) await this.redis.hdel(key, ...unreadable);
    return runs.sort((a, b) => a.startedAt - b.startedAt);
  }

  /**
   * The last finished run of each tenant x feed within retention, as stored (the caller checks
   * them): one read, however many runs the fleet keeps.
   */
  latest(): Promise<unknown[]> {
    return readLatest(this.redis, this.keys.latestRuns(), Date.now() - this.retentionMs);
  }

  /** Whether the feed alerts judged the finished run (a replayed finish judges only when not). */
  async judged(runId: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.run(runId), 'judged')) === 1;
  }

  async noteJudged(runId: string): Promise<void> {
    await this.redis.hset(this.keys.run(runId), 'judged', '1');
  }

  /** The latest runs, newest first (of one feed, when given); prunes index entries past retention. */
  async list(limit: number, feed?: string): Promise<RunListing[]> {
    const index = feed ? this.keys.runsOfFeed(feed) : this.keys.runs();
    await this.redis.zremrangebyscore(index, '-inf', Date.now() - this.retentionMs);
    const ids = await this.redis.zrevrange(index, 0, limit - 1);
    // One round trip for all of them: `runs` lists up to hundreds.
    const pipeline = this.redis.pipeline();
    for (const runId of ids) pipeline.hmget(this.keys.run(runId), 'meta', 'summary');
    const replies = (await pipeline.exec()) ?? [];
    const listings: RunListing[] = [];
    for (const [error, fields] of replies) {
      if (error) throw error;
      const [meta, summary] = fields as [string | null, string | null];
      if (meta)
        listings.push({
          meta: JSON.parse(meta) as RunMeta,
          ...(summary ? { summary: JSON.parse(summary) as RunSummary } : {}),
        });
    }
    return listings;
  }
}

const inflated = (batch: Buffer): RecordOutcome[] => inflatedJson(batch) as RecordOutcome[];
