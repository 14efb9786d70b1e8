import type { Logger } from 'pino';
import type { LoadedFeed } from '../config/load-feed.js';
import type { FileEncoding } from '../sources/text-encoding.js';
import { importFile } from '../sync/import-file.js';
import { writeSettings } from '../sync/prepare-settings.js';
import type { RunSummary } from '../sync/report/summary.js';
import { databaseOpener } from '../sync/run/database-run.js';
import { withFeedSource } from '../sync/run/feed-location.js';
import { listRun, noExport } from '../sync/run/list-run.js';
import { exportOpener } from '../sync/run/read-run.js';
import type { Opener } from '../sync/run/run-port.js';
import type { StopReason } from '../sync/run-handle.js';
import type { Clock } from '../time/clock.js';
import { CheckRun } from './check-run.js';
import { type FieldCount, FieldStats, type OtherCount } from './field-stats.js';
import { Identities, type IdentityCount } from './identities.js';
import { type CheckTotals, Totals } from './totals.js';

export interface CheckOptions {
  /** How many records that would be sent to show as payloads. */
  show: number;
  /** How many problem lines to show per field or per code. */
  examples: number;
  /** Where a remote location's secrets are read (the variables the feed names). */
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
}

/** A record that would be sent, where it comes from and its payload as the service would get it. */
export interface Sample {
  file: string;
  line: number;
  /** A database row's key: the row is `file:key` (placeOf). */
  key?: string;
  payload: unknown;
}

/** What `check` found of one feed. */
export interface FeedCheck {
  feed: string;
  /** The feed file. */
  source: string;
  kind: string;
  format: string;
  files: { file: string; records: number; encoding?: FileEncoding; sheet?: string }[];
  /** Exports listed but not arrived yet (the feed's arrival rule): not read. */
  waiting: { path: string; reason: string }[];
  /** Exports the location left out (e.g. a symlink), with why. */
  leftOut: { path: string; problem: string }[];
  /** No export, and the feed allows it: what sync would say. */
  noFile?: string;
  /** Why a file or the whole feed could not be read, as sync would stop (one per file at most). */
  stops: StopReason[];
  /** The import's outcomes as a sync's summary counts them (rejected, skipped, failed). */
  counts: RunSummary['counts'];
  fields: FieldCount[];
  other: OtherCount[];
  identities: IdentityCount;
  totals: CheckTotals;
  samples: Sample[];
}

/**
 * Reads a feed's current exports as `sync` does, through its location (listRun, exportOpener) or
 * its database (every row of its table or query, databaseOpener), and
 * the import (importFile: mapping, validation against the contract, exclusions, duplicates within
 * the run), and sends nothing: no service, no credentials, no report folder. Each file is read
 * to its end even when another file of the feed stops.
 */
export async function checkFeed(loaded: LoadedFeed, options: CheckOptions): Promise<FeedCheck> {
  const { feed } = loaded;
  const stats = new FieldStats(Object.keys(feed.mapping), options.examples);
  const identities = new Identities(feed);
  const totals = new Totals(feed);
  const samples: Sample[] = [];
  const run = new CheckRun(feed.name, {
    outcome: (outcome) => {
      stats.outcome(outcome);
      identities.outcome(outcome);
      totals.outcome(outcome);
    },
    wouldSend: (record) => {
      stats.wouldSend(record);
      identities.wouldSend(record);
      totals.wouldSend(record);
      if (samples.length < options.show)
        samples.push({
          file: record.file,
          line: record.line,
          ...(record.key !== undefined ? { key: record.key } : {}),
          payload: record.payload,
        });
    },
  });
  const leftOut: FeedCheck['leftOut'] = [];
  const files: FeedCheck['files'] = [];
  let waiting: FeedCheck['waiting'] = [];
  let noFile: string | undefined;
  /** Each export through the import, as a dry run of sync reads it, sending nothing. */
  const readAll = async (paths: readonly string[], open: Opener) => {
    for (const path of paths) {
      run.nextFile();
      const read = await importFile(feed, path, true, {
        run,
        open,
        dispatch: async () => {
          throw new Error('check sends nothing: a dry run hands no chunk over');
        },
        // The feed's write options only: what a kind resolves for its chunks (a target bank
        // account) needs the service, and nothing of it is part of a record's payload.
        prepare: async (f) => writeSettings(f),
        logger: options.logger,
      });
      files.push({
        file: read.file,
        records: read.records,
        ...(read.encoding ? { encoding: read.encoding } : {}),
        ...(read.sheet !== undefined ? { sheet: read.sheet } : {}),
      });
    }
  };
  // A database's one export is every row of its table or query: check keeps no cursor position.
  await withFeedSource(
    loaded,
    options.env,
    options.logger,
    async (at) => {
      if ('database' in at) return readAll([at.database.label], databaseOpener(at));
      const { location } = at;
      const listing = await listRun(location, loaded.sourceGlob, feed, {
        clock: options.clock,
        logger: options.logger,
        stop: (stop) => run.stop(stop),
      });
      waiting = listing.waiting;
      if (run.stops.length > 0) return;
      const rule = await noExport(listing.listed, feed, options.logger);
      if (rule.stop) await run.stop(rule.stop);
      noFile = rule.allowed;
      if (run.stops.length === 0)
        await readAll(
          listing.listed.listing.ready.map((f) => f.path),
          exportOpener(location),
        );
    },
    {
      onProblem: (p) => leftOut.push({ path: p.path, problem: p.problem }),
    },
  );
  return {
    feed: feed.name,
    source: loaded.file,
    kind: feed.kind,
    format: feed.source.format,
    files,
    waiting,
    leftOut,
    ...(noFile ? { noFile } : {}),
    stops: run.stops,
    counts: totals.counts(),
    fields: stats.fields(),
    other: stats.other(),
    identities: identities.result(),
    totals: totals.result(),
    samples,
  };
}
