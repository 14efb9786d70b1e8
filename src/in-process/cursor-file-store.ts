import { join } from 'node:path';
import type { CursorPosition } from '../sources/database/database-read.js';
import { type CursorStore, StoredPosition } from '../sync/run/cursor.js';
import { FeedSnapshotFile } from './feed-snapshot-file.js';

/**
 * Each database feed's cursor position in `<report-dir>/.feed-cursor.json`, beside
 * `.feed-identity.json` and `.feed-health.json` (issue 29). A file that cannot be parsed is an
 * error, not a fresh start: starting afresh would read every row again unasked (harmless for the
 * service, which skips what it holds, but a million-row table is not read by mistake); remove the
 * file, or a feed's entry, to read from the start on purpose (or `sync --reimport`).
 */
export class FileCursorStore implements CursorStore {
  readonly #file: FeedSnapshotFile<CursorPosition>;

  constructor(reportDir: string) {
    this.#file = new FeedSnapshotFile(
      join(reportDir, '.feed-cursor.json'),
      StoredPosition,
      'cursor position',
    );
  }

  get path(): string {
    return this.#file.path;
  }

  async load(feed: string): Promise<CursorPosition | undefined> {
    return (await this.#file.read())[feed];
  }

  save(feed: string, position: CursorPosition): Promise<void> {
    return this.#file.put(feed, position);
  }
}
