import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Feed } from '../../src/config/feed.js';
import { FileStopError } from '../../src/sources/file-stop.js';
import { openRecords, recordsOf } from '../../src/sources/open-records.js';
import type { MapOutcome } from '../../src/sources/record.js';

/** Writes small export fixtures (text or raw bytes) into one temp folder per test file. */
export function fixtureWriter(prefix: string): (content: string | Uint8Array, ext?: string) => string {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-${prefix}-`));
  let n = 0;
  return (content, ext = 'csv') => {
    const path = join(dir, `f${n++}.${ext}`);
    writeFileSync(path, content);
    return path;
  };
}

/** A temp folder of named files (feeds and the exports they name side by side); `write` returns the path. */
export function namedFiles(prefix: string): {
  dir: string;
  write(name: string, lines: readonly string[]): string;
} {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-${prefix}-`));
  return {
    dir,
    write: (name, lines) => {
      writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
      return join(dir, name);
    },
  };
}

/** Reads a whole export through openRecords, the path a sync takes, and returns every outcome. */
export async function readOutcomes(feed: Feed, file: string): Promise<MapOutcome[]> {
  const out: MapOutcome[] = [];
  for await (const outcome of recordsOf(openRecords(feed, file))) out.push(outcome);
  return out;
}

/**
 * readOutcomes for a file that may be stopped (a FileStopError from its reader): the outcomes
 * handed on before the stop, and the stop.
 */
export async function readUntilStop(
  feed: Feed,
  file: string,
): Promise<{ outcomes: MapOutcome[]; stop: FileStopError | undefined }> {
  const outcomes: MapOutcome[] = [];
  try {
    for await (const outcome of recordsOf(openRecords(feed, file))) outcomes.push(outcome);
  } catch (error) {
    if (!(error instanceof FileStopError)) throw error;
    return { outcomes, stop: error };
  }
  return { outcomes, stop: undefined };
}
