import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { ConfigError } from '../config/errors.js';
import { type LoadedFeed, loadFeedFile } from '../config/load-feed.js';
import { globMatcher, matchesGlob } from '../sources/glob.js';
import { isRemote } from '../sources/locations/source-keys.js';

/**
 * Jobs carry references, not authority: an import job names its feed by the feed file's path
 * relative to the fleet's feed directory (ERP_BRIDGE_FEEDS_DIR, --feeds), and the worker reads
 * the definition from its own copy of that directory. So a job added by hand (the dashboard,
 * redis-cli) can neither bring a feed definition of its own (a tenant, a mapping) nor name a file
 * that is not an export of the feed.
 */

/** `a` is `dir` or inside it (both absolute, normalised). */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The producer's side: the reference of a feed file, which must be in the feed directory. */
export function feedRef(feedsDir: string, feedFile: string): string {
  const dir = resolve(feedsDir);
  const file = resolve(feedFile);
  if (!inside(dir, file))
    throw new ConfigError(
      `${file}: not in the fleet's feed directory ${dir}: workers only run feeds from it; move the feed file there or set ERP_BRIDGE_FEEDS_DIR (or --feeds)`,
    );
  return relative(dir, file).split(sep).join('/');
}

/** A job that can never succeed, whatever the retries: BullMQ fails it at once, with this reason. */
export class JobRefused extends UnrecoverableError {}

/**
 * The worker's side: the feed a reference names, read from the worker's own feed directory. A
 * reference that is not a relative path of a .yaml/.yml file inside the directory (also after
 * following symlinks), or whose file cannot be read as a feed, refuses the job for good. `load`
 * reads the feed file once the reference passed (a worker's FeedFileCache: parsed once per version).
 */
export async function resolveFeedRef(
  feedsDir: string,
  ref: string,
  load: (file: string) => Promise<LoadedFeed> = loadFeedFile,
): Promise<LoadedFeed> {
  const dir = resolve(feedsDir);
  const candidate = resolve(dir, ref);
  if (!/\.ya?ml$/.test(ref) || !inside(dir, candidate))
    throw new JobRefused(
      `feed reference ${JSON.stringify(ref)} does not name a feed file inside the worker's feed directory ${dir}`,
    );
  const [realDir, realFile] = await Promise.all([
    realpath(dir).catch(() => dir),
    realpath(candidate).catch(() => candidate),
  ]);
  if (!inside(realDir, realFile))
    throw new JobRefused(
      `feed reference ${JSON.stringify(ref)} leads out of the worker's feed directory ${dir}`,
    );
  try {
    return await load(candidate);
  } catch (error) {
    if (error instanceof ConfigError)
      throw new JobRefused(`feed reference ${JSON.stringify(ref)}: ${error.message}`);
    throw error;
  }
}

/**
 * Refuses a file outside the feed's `source.path` glob, with the caller's error: the producer's
 * ConfigError (exit 2) for a mistyped or hostile `--file`, the worker's JobRefused for a hand-made
 * job. A feed's runs only ever read its own exports, so neither can import /etc/passwd for a tenant.
 */
export function checkExportOf(
  loaded: LoadedFeed,
  file: string,
  refuse: new (message: string) => Error,
): void {
  // A remote path is the server's (or a bucket key): matched as given, never resolved here.
  const remote = isRemote(loaded.feed.source.location);
  if (!(remote ? globMatcher(loaded.sourceGlob)(file) : matchesGlob(loaded.sourceGlob, file)))
    throw new refuse(
      `${remote ? file : resolve(file)} is not an export of feed ${loaded.feed.name} (${loaded.file}): it does not match its source.path glob ${loaded.sourceGlob}`,
    );
}

/**
 * A tick's feed file (the scheduler stores the absolute path it read) as a reference: relative to
 * the feed directory when inside it; anything else is left as given and refused by resolveFeedRef.
 */
export function tickFeedRef(feedsDir: string, feedFile: string): string {
  return isAbsolute(feedFile) ? relative(resolve(feedsDir), feedFile).split(sep).join('/') : feedFile;
}
