import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { PartnerClient } from '../../src/client/index.js';
import { Feed } from '../../src/config/feed.js';
import type { Clock } from '../../src/time/clock.js';

/** A users feed of account 1001, for tests of a run's phases (open, finish) that read no file. */
export const usersFeed = (name: string): Feed =>
  Feed.parse({
    name,
    accountId: 1001,
    kind: 'users',
    source: { path: 'users.csv', format: 'csv' },
    mapping: { externalId: 'id', email: 'email', firstName: 'first', lastName: 'last' },
  });

/** Makes a fresh temporary folder per call; each is removed after the test. */
export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** A client whose address refuses: for a run phase that must send nothing (a request fails the test). */
export const unaskedClient = (clock: Clock): PartnerClient =>
  new PartnerClient(
    { baseUrl: 'http://127.0.0.1:9/v2', authUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's' },
    { clock },
  );
