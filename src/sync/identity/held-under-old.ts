import type { Feed, FeedOf } from '../../config/feed.js';
import { KINDS, type RecordKind } from '../../kinds/registry.js';
import type { RecordStream } from '../../sources/open-records.js';
import type { MapOutcome, MappedRecord } from '../../sources/record.js';
import type { RecordOf } from '../../sources/record-of.js';
import { type Chunk, Chunker, chunkOf } from '../chunk.js';
import type { ChunkSettings } from '../chunk-settings.js';
import type { Prediction } from '../predict.js';

/** What the identity check may ask the service: the reads a dry run makes, nothing written. */
export interface ServiceReads {
  /** The chunk settings as a dry run resolves them (a target is looked up, never created). */
  prepare(feed: Feed): Promise<ChunkSettings>;
  /** A dry run's prediction of a chunk (sync/predict.ts): the existence check, read-only. */
  predict(chunk: Chunk): Promise<Prediction>;
}

/** Opens an export file of the run as a feed reads it (the runner's location, its line filter). */
export type OpenRecords = <K extends RecordKind>(feed: FeedOf<K>, file: string) => RecordStream<RecordOf<K>>;

/** How many records of the run the service holds under their old derived IDs, or why that is not known. */
export type HeldUnderOld = { known: true; held: number } | { known: false; why: string };

/**
 * Counts the records of `files` whose ID differs read as `before` (the feed under its old identity
 * settings) and as `after` (under the new ones), and whose old ID the service holds: those a run
 * under the new settings would create a second time. A record whose ID the change leaves as it
 * was (a source ID column renamed with the same values) is not counted. Asked as `askerFor` asks.
 */
export async function heldUnderOld<K extends RecordKind>(
  before: FeedOf<K>,
  after: FeedOf<K>,
  files: readonly string[],
  open: OpenRecords,
  reads: ServiceReads,
): Promise<HeldUnderOld> {
  const asker = askerFor(before, reads);
  if ('why' in asker) return asker.why;
  try {
    for (const file of files) {
      const stream = open(before, file);
      const now = open(after, file);
      // Not read to its end when the old mapping does not fit: its fingerprint is not awaited.
      stream.sha256.catch(() => undefined);
      now.sha256.catch(() => undefined);
      const newIds = outcomesOf(now);
      const chunker = new Chunker<RecordOf<K>>();
      try {
        for await (const batch of stream.batches)
          for (const outcome of batch) {
            // The same file read twice gives one outcome per row in the same order, whatever the mapping.
            const paired = await newIds.next();
            if (paired.done || paired.value.record.line !== outcome.record.line)
              return {
                known: false,
                why: `the rows of ${stream.file} read otherwise under the old settings`,
              };
            if (outcome.kind !== 'mapped') continue;
            // Not sent under the new settings, or sent under the ID it had: nothing created twice.
            if (
              paired.value.kind !== 'mapped' ||
              paired.value.record.externalId === outcome.record.externalId
            )
              continue;
            const full = chunker.add(outcome.record);
            if (full) await asker.ask(full);
          }
      } finally {
        await newIds.return(undefined); // closes the second reading when the first ends early
      }
      // A mapping that does not fit maps no row at all: its records' old IDs are unknown.
      const layout = stream.layoutProblem?.();
      if (layout) return { known: false, why: `the old settings do not fit ${stream.file}: ${layout}` };
      const rest = chunker.rest();
      if (rest) await asker.ask(rest);
    }
    return { known: true, held: asker.held() };
  } catch (error) {
    // The service unreachable, a file that cannot be read again: the caller counts without it.
    return { known: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Counts the records of `files` that the changed settings may give another ID (those with a
 * derived ID, or every record with `everyRecord`) and whose ID under the new settings the service
 * already holds: a run under them skips those, so they are no duplicates. What is left of the
 * affected count bounds the duplicates where the old IDs cannot be read (an ID column renamed in
 * the export and the mapping at once, settings stored without their mappings).
 */
export async function heldUnderNew<K extends RecordKind>(
  after: FeedOf<K>,
  files: readonly string[],
  open: OpenRecords,
  reads: ServiceReads,
  everyRecord: boolean,
): Promise<HeldUnderOld> {
  const asker = askerFor(after, reads);
  if ('why' in asker) return asker.why;
  try {
    for (const file of files) {
      const chunker = new Chunker<RecordOf<K>>();
      for await (const batch of open(after, file).batches)
        for (const outcome of batch) {
          if (outcome.kind !== 'mapped' || !(everyRecord || outcome.record.derivedId)) continue;
          const full = chunker.add(outcome.record);
          if (full) await asker.ask(full);
        }
      const rest = chunker.rest();
      if (rest) await asker.ask(rest);
    }
    return { known: true, held: asker.held() };
  } catch (error) {
    return { known: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Asks the service chunk by chunk (at most 1000 IDs) with a dry run's read-only prediction in mode
 * insert, where a record the service holds counts whatever its other fields say. A kind whose
 * records carry no externalId in the service (plans, categories) holds none by ID.
 */
function askerFor<K extends RecordKind>(
  feed: FeedOf<K>,
  reads: ServiceReads,
): { why: HeldUnderOld } | { ask(records: RecordOf<K>[]): Promise<void>; held(): number } {
  const kind = KINDS[feed.kind];
  if (!kind.sendsExternalId) return { why: { known: true, held: 0 } };
  if (!kind.predict)
    return { why: { known: false, why: `the service cannot be asked which ${feed.kind} it holds` } };
  let settings: Promise<ChunkSettings> | undefined;
  let held = 0;
  let seq = 0;
  return {
    async ask(records) {
      settings ??= reads.prepare(feed).then((prepared) => ({ ...prepared, mode: 'insert' as const }));
      const chunk = chunkOf<K>({
        runId: 'identity-check',
        feed: feed.name,
        kind: feed.kind,
        accountId: feed.accountId,
        seq: ++seq,
        settings: await settings,
        records,
      });
      held += (await reads.predict(chunk)).skipped.length;
    },
    held: () => held,
  };
}

/** A stream's outcomes one at a time, to pair them with another reading of the same file. */
async function* outcomesOf<R extends MappedRecord>(stream: RecordStream<R>): AsyncGenerator<MapOutcome<R>> {
  for await (const batch of stream.batches) yield* batch;
}
