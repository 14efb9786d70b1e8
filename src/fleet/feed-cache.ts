import { stat } from 'node:fs/promises';
import { type LoadedFeed, loadFeedFile } from '../config/load-feed.js';

/** What tells one version of a feed file from another: ctime moves with every write or rename. */
const versionOf = (s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }) =>
  `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/**
 * A worker's feed files as last loaded, so each job does not parse and validate the same YAML
 * again (an import job loads its feed in both of its passes: about a tenth of a small run's CPU).
 * Each load asks the file system for the file's version (a stat) and parses it again whenever it
 * differs, so an edited feed file is read by the next job as before; a file that no longer loads
 * throws as before (failures are never kept). The stat comes before the read: what is kept is at
 * least as new as the version it is kept under, so a later stat that differs loads it again.
 * Callers treat the feed as read-only: the same object serves every job until the file changes.
 */
export class FeedFileCache {
  readonly #loaded = new Map<string, { version: string; feed: LoadedFeed }>();

  /** `max`: feed files kept; past it the least recently used goes. */
  constructor(private readonly max = 1000) {}

  readonly load = async (file: string): Promise<LoadedFeed> => {
    // A file that cannot be stat'ed is loaded as before, which says why it cannot be read.
    const version = await stat(file, { bigint: true }).then(versionOf, () => undefined);
    const kept = this.#loaded.get(file);
    if (version !== undefined && kept?.version === version) {
      // Most recently used last: Map keeps insertion order.
      this.#loaded.delete(file);
      this.#loaded.set(file, kept);
      return kept.feed;
    }
    this.#loaded.delete(file);
    const feed = await loadFeedFile(file);
    if (version === undefined) return feed;
    this.#loaded.set(file, { version, feed });
    if (this.#loaded.size > this.max) {
      const [oldest] = this.#loaded.keys();
      if (oldest !== undefined) this.#loaded.delete(oldest);
    }
    return feed;
  };
}
