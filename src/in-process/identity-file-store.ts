import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IdentityStore, StoredIdentity } from '../sync/identity/check.js';
import { type IdentitySettings, StoredIdentitySettings } from '../sync/identity/settings.js';
import { FeedSnapshotFile } from './feed-snapshot-file.js';

/** The file's JSON; undefined when there is none; SyntaxError when it is not JSON. */
async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Each feed's identity settings in `<report-dir>/.feed-identity.json`, beside `.feed-health.json`.
 * A feed with no entry but an entry in `.feed-health.json` has run before settings were kept
 * (scheme 1). A file that cannot be parsed is an error, not a fresh start: starting afresh would
 * accept any change silently.
 */
export class FileIdentityStore implements IdentityStore {
  readonly #file: FeedSnapshotFile<IdentitySettings>;

  constructor(private readonly reportDir: string) {
    this.#file = new FeedSnapshotFile(
      join(reportDir, '.feed-identity.json'),
      StoredIdentitySettings,
      'identity settings',
    );
  }

  get path(): string {
    return this.#file.path;
  }

  async load(feed: string): Promise<StoredIdentity> {
    const settings = (await this.#file.read())[feed];
    if (settings) return { kind: 'stored', settings };
    const health = await readJson(join(this.reportDir, '.feed-health.json')).catch(() => undefined);
    const ranBefore = typeof health === 'object' && health !== null && feed in health;
    return ranBefore ? { kind: 'legacy' } : { kind: 'none' };
  }

  save(feed: string, settings: IdentitySettings): Promise<void> {
    // Serialised: several feeds of one sync share the file.
    return this.#file.put(feed, settings);
  }
}
