import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { IdentityStore, StoredIdentity } from '../sync/identity/check.js';
import type { IdentitySettings } from '../sync/identity/settings.js';

const Settings = z.object({ scheme: z.literal([1, 2]), fields: z.record(z.string(), z.string()) });
const Snapshot = z.record(z.string(), Settings);

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SyntaxError) return null;
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
    const health = await readJson(join(this.reportDir, '.feed-health.json'));
    const ranBefore = typeof health === 'object' && health !== null && feed in health;
    return ranBefore ? { kind: 'legacy' } : { kind: 'none' };
  }

  save(feed: string, settings: IdentitySettings): Promise<void> {
    // Serialised: several feeds of one sync share the file.
    const next = this.#last.then(async () => {
      const snapshot = await this.#read();
      snapshot[feed] = settings;
      await mkdir(dirname(this.path), { recursive: true });
      const partial = `${this.path}.${process.pid}.tmp`;
      await writeFile(partial, `${JSON.stringify(snapshot, null, 2)}\n`);
      await rename(partial, this.path);
    });
    this.#last = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<Record<string, IdentitySettings>> {
    const json = await readJson(this.path);
    if (json === undefined) return {};
    const parsed = Snapshot.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `${this.path} is not a valid identity settings file (${parsed.error.issues[0]?.message ?? 'unreadable JSON'}); fix or remove it`,
      );
    return parsed.data;
  }
}
