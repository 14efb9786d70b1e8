import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import { openRecords, type RecordStream } from '../../sources/open-records.js';
import type { StopReason } from '../run-handle.js';
import { RunStopError } from '../stop.js';
import { heldUnderNew, heldUnderOld, type OpenRecords, type ServiceReads } from './held-under-old.js';
import {
  feedUnder,
  type IdentitySettings,
  identityChanges,
  identitySettings,
  sourceIdChanged,
} from './settings.js';

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
  /** The run's export files, read through `open` only when the settings changed. */
  files: readonly string[];
  open: OpenRecords;
  /** Read-only questions to the service: which records it holds under their old derived IDs. */
  reads: ServiceReads;
  logger: Logger;
}

export const IDENTITY_CHANGED = 'IDENTITY_CHANGED';

/**
 * Compares the feed's identity settings with the stored ones before anything is sent. A change
 * that changes derived IDs stops the run (exit 2, naming the change and how many records it
 * affects) unless accepted: records the service holds under their old IDs would be created a
 * second time under the new ones. With the old settings stored in full, the count is of those
 * records (their old IDs derived again and asked as a dry run asks, read-only), and a run none of
 * whose records the service holds goes on. Without them (an entry stored before 2026-11-28, a
 * feed that ran before settings were kept, an old mapping that does not fit the file), the count
 * is of the affected records the service does not hold under their new IDs (an upper bound; none:
 * the run goes on), or of all affected records when the service cannot be asked. A first run, an unchanged feed, an accepted change, or a
 * change that affects no record (every record carries a source ID, or there is no file) goes on
 * too. It stores nothing: a run stores the settings before its first write (storeBeforeFirstWrite).
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
  const affected = await countAffected(feed, options.files, options.open, sourceIdChanged(previous, next));
  const log = { feed: feed.name, changes, affected };
  if (affected === 0) {
    // Nothing to duplicate in this run: it goes on, and stores the new settings if it writes.
    options.logger.info(log, 'identity settings changed; no record of this run has an ID they give');
    return undefined;
  }
  if (options.accept) {
    options.logger.warn(
      log,
      'identity settings changed and accepted (--accept-new-identity): derived IDs change',
    );
    return undefined;
  }
  const before = stored.kind === 'stored' ? feedUnder(feed, stored.settings) : undefined;
  const held = before && (await heldUnderOld(before, feed, options.files, options.open, options.reads));
  if (held?.known && held.held === 0) {
    options.logger.info(
      log,
      "identity settings changed; the service holds none of this run's records under old IDs that the change replaces, so none would be created twice: the run goes on, and stores the new settings before its first write",
    );
    return undefined;
  }
  // The old IDs unknown: records the service holds under their new IDs are skipped, not doubled.
  const heldNew = held?.known
    ? undefined
    : await heldUnderNew(feed, options.files, options.open, options.reads, sourceIdChanged(previous, next));
  const bound = heldNew?.known ? affected - heldNew.held : affected;
  if (bound <= 0) {
    options.logger.info(
      { ...log, heldUnderNewIds: affected },
      'identity settings changed; the old IDs cannot be read, but the service holds every record of this run the change affects under its new ID, so none would be created twice: the run goes on, and stores the new settings before its first write',
    );
    return undefined;
  }
  // The derived-ID wording stays for the common case; a source ID change changes source IDs too.
  const idWord = sourceIdChanged(previous, next) ? 'IDs' : 'derived IDs';
  const keepOld =
    previous.scheme === 1 && next.scheme === 2
      ? ', or set `identityScheme: 1` in the feed to keep the IDs already in the service'
      : ', or undo the change';
  const alreadyNew =
    heldNew?.known && heldNew.held > 0
      ? `; ${heldNew.held} more the service already holds under their new ${idWord} are skipped`
      : '';
  const count = held?.known
    ? `${held.held} record(s) of this run are in the service under the old ${idWord} and would be created again beside them under new ones`
    : `${bound} record(s) of this run would get new ${idWord} and be created again beside those already in the service${held ? ` (an upper bound: the service could not be asked which of them it holds under the old IDs: ${held.why}${alreadyNew})` : alreadyNew ? ` (an upper bound${alreadyNew})` : ''}`;
  return {
    code: IDENTITY_CHANGED,
    exitCode: 2,
    message: `the feed's identity settings changed (${changes.join('; ')}): ${count}; nothing was sent. Pass --accept-new-identity to accept the new IDs${keepOld}`,
  };
}

/**
 * What a run that may write calls before each write request: the first call stores the identity
 * settings the run was checked under (`save`; the adapter makes it once per run). Before, not at
 * the end: a run that dies after writing (killed, out of memory, a worker lost), or whose writes
 * all ended failed with a lost answer, leaves stored the settings its records may be in the
 * service under; a run that never writes (stopped before, a dry run, every record skipped) leaves
 * them as they were. A store that fails stops the run before the request: its records would
 * otherwise be in the service under settings no later run compares with.
 */
export function storeBeforeFirstWrite(save: () => Promise<void>): () => Promise<void> {
  let stored: Promise<void> | undefined;
  return () => {
    stored ??= save().catch((error: unknown) => {
      stored = undefined;
      throw new RunStopError(
        'IDENTITY_STATE_UNWRITABLE',
        `could not store the feed's identity settings before the first write (${error instanceof Error ? error.message : String(error)}); nothing was sent after that`,
        2,
      );
    });
    return stored;
  };
}

/**
 * Counts the records of `files` whose ID the changed settings may change (a reading pass, no
 * request): those with a derived ID, or every record when the source ID's mapping changed.
 */
export async function countAffected(
  feed: Feed,
  files: readonly string[],
  open: (feed: Feed, file: string) => RecordStream = openRecords,
  everyRecord = false,
): Promise<number> {
  let count = 0;
  for (const file of files) {
    try {
      for await (const batch of open(feed, file).batches)
        for (const outcome of batch)
          if (outcome.kind === 'mapped' && (everyRecord || outcome.record.derivedId)) count++;
    } catch {
      // An unreadable file is reported by the run itself; the count covers what could be read.
    }
  }
  return count;
}
