import type { Logger } from 'pino';
import type { LoadedFeed } from '../../config/load-feed.js';
import { databaseForRun } from '../../sources/database/database-for-run.js';
import { fileSourceOf, isDatabaseSource } from '../../sources/formats/registry.js';
import type { Location } from '../../sources/locations/location.js';
import { openLocation } from '../../sources/locations/open-location.js';
import { type OpenDatabase, type OpenedDatabase, openForRun } from './database-run.js';

export interface SourceOptions {
  /** Hears a listed file the location leaves out (default: a warning in the log). */
  onProblem?: (problem: { path: string; problem: string }) => void;
  /** How a database source is opened (default: the reading side's, databaseForRun). */
  openDatabase?: OpenDatabase | undefined;
}

/**
 * Opens the feed's location (the local disk, SFTP or S3) for `use` and closes it after, whatever
 * `use` ends with; a listed file the location leaves out (a symlink that loops or points nowhere)
 * is said in the log. Every runner and command that reads a feed's exports opens them so.
 */
export async function withFeedLocation<T>(
  loaded: LoadedFeed,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  use: (location: Location) => Promise<T>,
  options: SourceOptions = {},
): Promise<T> {
  const location = openLocation(fileSourceOf(loaded.feed.source).location, env, {
    onProblem:
      options.onProblem ??
      ((p) =>
        logger.warn(
          { feed: loaded.feed.name, glob: loaded.sourceGlob, path: p.path },
          `export file left out: ${p.problem}`,
        )),
  });
  try {
    return await use(location);
  } finally {
    await location.close();
  }
}

/** Where a feed's records come from: its location's export files, or its database's one read. */
export type FeedSource = { location: Location } | { database: OpenedDatabase };

/**
 * Opens the feed's source for `use` and closes it after, whatever `use` ends with: a database
 * source (a database that refuses at once gives a database whose read throws that refusal, so the
 * run stops with it: openForRun), else the feed's location (withFeedLocation).
 */
export async function withFeedSource<T>(
  loaded: LoadedFeed,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  use: (at: FeedSource) => Promise<T>,
  options: SourceOptions = {},
): Promise<T> {
  const { source } = loaded.feed;
  if (!isDatabaseSource(source))
    return withFeedLocation(loaded, env, logger, (location) => use({ location }), options);
  const database = openForRun(options.openDatabase ?? databaseForRun, source, loaded.sourceGlob, env);
  try {
    return await use({ database });
  } finally {
    await database.close();
  }
}
