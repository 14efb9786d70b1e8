import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import { openRecords, type RecordStream } from '../../sources/open-records.js';
import type { RunSummary } from '../report/summary.js';
import type { StopReason } from '../run-handle.js';
import { type IdentitySettings, identityChanges, identitySettings } from './settings.js';

/**
 * A feed's identity settings as last stored with its run state: stored; `legacy` when none are
 * stored but the feed has run before (it ran before settings were kept: scheme 1); or `none`.
 */
export type StoredIdentity =
  | { kind: 'stored'; settings: IdentitySettings }
  | { kind: 'legacy' }
  | { kind: 'none' };

/** Where identity settings live: beside the reports for `sync`, in Redis for the fleet. */
export interface IdentityStore {
  load(feed: string): Promise<StoredIdentity>;
  save(feed: string, settings: IdentitySettings): Promise<void>;
}

export interface IdentityCheckOptions {
  /** `--accept-new-identity`: the user accepts that derived IDs change now. */
  accept: boolean;
  /** How many records of this run carry a derived ID (only asked when the settings changed). */
  countDerived(): Promise<number>;
  logger: Logger;
}

export const IDENTITY_CHANGED = 'IDENTITY_CHANGED';

/**
 * Compares the feed's identity settings with the stored ones before anything is sent. A change
 * that changes derived IDs stops the run (exit 2, naming the change and how many records it
 * affects) unless accepted; the run's records would otherwise be created a second time under
 * their new IDs. A first run, an unchanged feed, an accepted change, or a change that affects no
 * record (every record carries a source ID, or there is no file) lets the run go on. It stores
 * nothing: `keepIdentity` does, once the run has written under the settings.
 */
export async function checkIdentity(
  feed: Feed,
  store: IdentityStore,
  options: IdentityCheckOptions,
): Promise<StopReason | undefined> {
  const next = identitySettings(feed);
  let stored: StoredIdentity;
  try {
    stored = await store.load(feed.name);
  } catch (error) {
    // Without the stored settings no change can be seen: going on could duplicate every record.
    return {
      code: 'IDENTITY_STATE_UNREADABLE',
      exitCode: 2,
      message: `${error instanceof Error ? error.message : String(error)}; nothing was sent`,
    };
  }
  if (stored.kind === 'none') return undefined;
  const previous = stored.kind === 'stored' ? stored.settings : { scheme: 1 as const };
  const changes = identityChanges(previous, next);
  if (changes.length === 0) return undefined;
  const affected = await options.countDerived();
  const log = { feed: feed.name, changes, affected };
  if (affected === 0) {
    // Nothing to duplicate in this run: it goes on, and stores the new settings if it writes.
    options.logger.info(log, 'identity settings changed; no record of this run has a derived ID');
    return undefined;
  }
  if (options.accept) {
    options.logger.warn(
      log,
      'identity settings changed and accepted (--accept-new-identity): derived IDs change',
    );
    return undefined;
  }
  const keepOld =
    previous.scheme === 1 && next.scheme === 2
      ? ', or set `identityScheme: 1` in the feed to keep the IDs already in the service'
      : ', or undo the change';
  return {
    code: IDENTITY_CHANGED,
    exitCode: 2,
    message: `the feed's identity settings changed (${changes.join('; ')}): ${affected} record(s) of this run would get new derived IDs and be created again beside those already in the service; nothing was sent. Pass --accept-new-identity to accept the new IDs${keepOld}`,
  };
}

/**
 * Once a run has ended: stores the feed's identity settings when the run wrote under them (created
 * or updated a record), so the stored settings are always ones the service holds records under. A
 * run that wrote nothing (stopped on a layout or configuration error, refused credentials, a dry
 * run, no file) leaves them as they were: a first run that failed leaves the next one a first run,
 * and a stop after a change counts only on settings something was sent under. Returns whether it
 * stored.
 */
export async function keepIdentity(
  feed: Feed,
  store: IdentityStore,
  summary: Pick<RunSummary, 'dryRun' | 'counts'>,
): Promise<boolean> {
  if (summary.dryRun || summary.counts.created + summary.counts.updated === 0) return false;
  await store.save(feed.name, identitySettings(feed));
  return true;
}

/** Counts the records of `files` whose externalId is derived (a reading pass, no request). */
export async function countDerivedIds(
  feed: Feed,
  files: readonly string[],
  open: (feed: Feed, file: string) => RecordStream = openRecords,
): Promise<number> {
  let count = 0;
  for (const file of files) {
    try {
      for await (const batch of open(feed, file).batches)
        for (const outcome of batch) if (outcome.kind === 'mapped' && outcome.record.derivedId) count++;
    } catch {
      // An unreadable file is reported by the run itself; the count covers what could be read.
    }
  }
  return count;
}
