import type { Logger } from 'pino';
import type { LoadedFeed } from '../../config/load-feed.js';
import { fileSourceOf } from '../../sources/formats/registry.js';
import type { Location } from '../../sources/locations/location.js';
import { openLocation } from '../../sources/locations/open-location.js';

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
): Promise<T> {
  const location = openLocation(fileSourceOf(loaded.feed.source).location, env, {
    onProblem: (p) =>
      logger.warn(
        { feed: loaded.feed.name, glob: loaded.sourceGlob, path: p.path },
        `export file left out: ${p.problem}`,
      ),
  });
  try {
    return await use(location);
  } finally {
    await location.close();
  }
}
