import type { Logger } from 'pino';
import type { PartnerClient, PartnerClientCore } from '../client/index.js';
import type { Clock } from '../time/clock.js';

/**
 * The client's typed helper calls (every method PartnerClient adds to the generic core): a port,
 * so adapters can supply their own. Derived, so a kind whose strategy needs a new call gets it by
 * adding the helper to the client, not by listing it here.
 */
export type SyncClient = Omit<PartnerClient, keyof PartnerClientCore>;

/** What a strategy gets for one chunk: ports only, no I/O of its own. */
export interface ChunkContext {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  /** The customer account the chunk writes to (X-Account-Id), or PARTNER_SCOPE. */
  accountId: number;
  signal?: AbortSignal;
  /**
   * Serialises creates of one (account, externalId) across runs and workers (create-claims.ts);
   * absent: no serialisation (tests of one strategy).
   */
  claims?: CreateClaims;
  /** The run's stops of single named accounts (run-handle.ts); absent: each chunk on its own. */
  accountStops?: AccountStops;
}

/** What stopped one named account in a run (MAX_USERS_REACHED, ...): its code and message. */
export interface AccountStop {
  code: string;
  message: string;
}

/**
 * Stops that concern one named account of a run, shared by its chunks (in this process, or across
 * the fleet's workers): once an account has no user slot left, later chunks send it nothing more,
 * and the alert is raised once per run, not once per chunk.
 */
export interface AccountStops {
  /** How the account was stopped in this run, if it was. */
  stopped(account: string): Promise<AccountStop | undefined>;
  /** Records the stop; true when this was the run's first for the account (raise the alert then). */
  stop(account: string, reason: AccountStop): Promise<boolean>;
}

/**
 * Serialises creates of one (account, kind, externalId) across runs: a port, implemented in this
 * process by MemoryCreateClaims (create-claims.ts) and across the fleet by Redis keys.
 */
export interface CreateClaims {
  /** Claims every key it can for `holder`; returns those it holds now. */
  tryClaim(keys: readonly string[], holder: string, ttlMs: number): Promise<Set<string>>;
  /** Releases what `holder` holds of `keys` (never another holder's claim). */
  release(keys: readonly string[], holder: string): Promise<void>;
}
