import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { writeFileAtomic } from '../report-files/atomic-file.js';
import type { IdentityStore, StoredIdentity } from '../sync/identity/check.js';
import { type IdentitySettings, StoredIdentitySettings } from '../sync/identity/settings.js';

const Snapshot = z.record(z.string(), StoredIdentitySettings);

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
  readonly path: string;
  #last: Promise<unknown> = Promise.resolve();

  constructor(private readonly reportDir: string) {
    this.path = join(reportDir, '.feed-identity.json');
  }

  async load(feed: string): Promise<StoredIdentity> {
    const settings = (await this.#read())[feed];
    if (settings) return { kind: 'stored', settings };
    const health = await readJson(join(this.reportDir, '.feed-health.json')).catch(() => undefined);
    const ranBefore = typeof health === 'object' && health !== null && feed in health;
    return ranBefore ? { kind: 'legacy' } : { kind: 'none' };
  }

  save(feed: string, settings: IdentitySettings): Promise<void> {
    // Serialised: several feeds of one sync share the file.
    const next = this.#last.then(async () => {
      const snapshot = await this.#read();
      if (isDeepStrictEqual(snapshot[feed], settings)) return;
      snapshot[feed] = settings;
      await mkdir(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, `${JSON.stringify(snapshot, null, 2)}\n`);
    });
    this.#last = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<Record<string, IdentitySettings>> {
    const unreadable = (why: string) =>
      new Error(`${this.path} is not a valid identity settings file (${why}); fix or remove it`);
    const json = await readJson(this.path).catch((error: unknown) => {
      throw error instanceof SyntaxError ? unreadable(error.message) : error;
    });
    if (json === undefined) return {};
    const parsed = Snapshot.safeParse(json);
    if (!parsed.success) throw unreadable(parsed.error.issues[0]?.message ?? 'not a settings object');
    return parsed.data;
  }
}
