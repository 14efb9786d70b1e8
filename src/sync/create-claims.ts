import { randomUUID } from 'node:crypto';
import type { MappedRecord } from '../sources/record.js';
import type { ChunkOutcomes } from './chunk-outcomes.js';
import type { ChunkContext, CreateClaims } from './ports.js';

/*
 * Short claims on "creating (account, kind, externalId) now", so that two runs (or two workers)
 * never look up and create the same target at the same time: the service does not de-duplicate
 * invoices, and two lookups that both find nothing create two. In process: MemoryCreateClaims; the
 * fleet: Redis keys (src/fleet/create-claims.ts). A claim expires after `ttlMs` (a crashed holder
 * cannot block forever).
 */

/** Claims of this process (one `sync`, or several feeds in one scheduler process). */
export class MemoryCreateClaims implements CreateClaims {
  readonly #held = new Map<string, { holder: string; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async tryClaim(keys: readonly string[], holder: string, ttlMs: number): Promise<Set<string>> {
    const now = this.now();
    const got = new Set<string>();
    for (const key of keys) {
      const current = this.#held.get(key);
      if (current && current.holder !== holder && current.until > now) continue;
      this.#held.set(key, { holder, until: now + ttlMs });
      got.add(key);
    }
    return got;
  }

  async release(keys: readonly string[], holder: string): Promise<void> {
    for (const key of keys) if (this.#held.get(key)?.holder === holder) this.#held.delete(key);
  }
}

/** The process-wide claims of in-process runs. */
export const processCreateClaims = new MemoryCreateClaims();

/** How long a chunk waits for targets another run is creating before it leaves them to the next run. */
export const CLAIM_WAIT_MS = 30_000;
/** Expiry of a claim: longer than any chunk's creates (in-flight bound, re-checks, 429 waits). */
export const CLAIM_TTL_MS = 30 * 60_000;
const CLAIM_POLL_MS = 500;

export const claimKey = (accountId: number, kind: string, externalId: string) =>
  `${accountId}\u0000${kind}\u0000${externalId}`;

/**
 * Runs `work` with the records whose creates this chunk holds (ctx.claims; everything when absent).
 * Records another run keeps claimed for longer than CLAIM_WAIT_MS are settled failed
 * (CONCURRENT_CREATE): the next run looks them up and finds what the other run created. `keyOf`
 * names what a record creates: its externalId, or what the kind matches by (a category's path);
 * undefined: nothing to claim, the record is always held.
 */
export async function withCreateClaims<R extends MappedRecord>(
  ctx: ChunkContext,
  kind: string,
  records: R[],
  out: ChunkOutcomes<R>,
  work: (held: R[]) => Promise<void>,
  keyOf: (record: R) => string | undefined = (record) => record.externalId,
): Promise<void> {
  const claims = ctx.claims;
  if (!claims || records.length === 0) return work(records);
  const holder = randomUUID();
  const claimOf = (r: R) => {
    const key = keyOf(r);
    return key === undefined ? undefined : claimKey(ctx.accountId, kind, key);
  };
  // A loop, not flatMap: every record of a run passes here, most claiming nothing (a bank
  // statement's rows without another shape), and flatMap showed in the sync's profile.
  const keys: string[] = [];
  for (const record of records) {
    const key = claimOf(record);
    if (key !== undefined) keys.push(key);
  }
  if (keys.length === 0) return work(records);
  let got = new Set<string>();
  try {
    got = await claimWithin(ctx, claims, keys, holder);
    const isHeld = (r: R) => {
      const key = claimOf(r);
      return key === undefined || got.has(key);
    };
    const held = records.filter(isHeld);
    const waiting = records.filter((r) => !isHeld(r));
    for (const record of waiting) {
      out.settle(record, {
        outcome: 'failed',
        code: 'CONCURRENT_CREATE',
        message: `another run is creating "${keyOf(record)}" in account ${ctx.accountId} right now; not sent, so it cannot be created twice: the next run finds it`,
      });
    }
    // Input order, as the strategy expects (held was filtered from records).
    await work(held);
  } finally {
    await claims.release([...got], holder);
  }
}

/**
 * Runs `work` holding the claim on creating one (account, kind, externalId), e.g. a transactions
 * feed's target bank account; undefined when another run held it for longer than CLAIM_WAIT_MS.
 * Without claims (ctx.claims absent) `work` simply runs.
 */
export async function withCreateClaim<T>(
  ctx: ChunkContext,
  kind: string,
  externalId: string,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const claims = ctx.claims;
  if (!claims) return work();
  const holder = randomUUID();
  const key = claimKey(ctx.accountId, kind, externalId);
  const got = await claimWithin(ctx, claims, [key], holder);
  if (!got.has(key)) return undefined;
  try {
    return await work();
  } finally {
    await claims.release([key], holder);
  }
}

/** Claims what it can of `keys`, retrying the rest every CLAIM_POLL_MS for up to CLAIM_WAIT_MS. */
async function claimWithin(
  ctx: ChunkContext,
  claims: CreateClaims,
  keys: readonly string[],
  holder: string,
): Promise<Set<string>> {
  const held = new Set<string>();
  let waiting = keys;
  const deadline = ctx.clock.now() + CLAIM_WAIT_MS;
  for (;;) {
    const got = await claims.tryClaim(waiting, holder, CLAIM_TTL_MS);
    for (const key of got) held.add(key);
    waiting = waiting.filter((key) => !got.has(key));
    if (waiting.length === 0 || ctx.clock.now() >= deadline) return held;
    await ctx.clock.sleep(CLAIM_POLL_MS, ctx.signal);
  }
}
