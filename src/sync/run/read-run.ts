import type { Logger } from 'pino';
import * as z from 'zod';
import type { Feed } from '../../config/feed.js';
import { FormatReport } from '../../sources/format-report.js';
import { exportFile } from '../../sources/locations/export-file.js';
import type { Location } from '../../sources/locations/location.js';
import { onlyLines, openRecords } from '../../sources/open-records.js';
import { type ImportPorts, importFile } from '../import-file.js';
import { CursorRange } from './cursor.js';
import type { FinishedFile } from './finish-run.js';
import type { Opener, ReadPort } from './run-port.js';

/**
 * What a run keeps of each file it read, serialisable: the fleet keeps it in the import job
 * (`job.data.read`) between its reading and its finishing pass; the summary reports it.
 */
export const ReadResult = z.strictObject({
  records: z.int().nonnegative(),
  sha256: z.string(),
  /** The encoding the file was read with, for the summary (see src/sources/text-encoding.ts). */
  encoding: z
    .strictObject({
      name: z.enum(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1']),
      chosenBy: z.enum(['auto', 'feed']),
      reason: z.string().optional(),
    })
    .optional(),
  /** Workbook formats: the sheet read, for the summary. */
  sheet: z.string().optional(),
  /**
   * A database read (issue 29): the cursor range it covered, which travels to the run's end (the
   * fleet's finishing pass) where the stored position advances to `to`.
   */
  cursor: CursorRange.optional(),
  /** What the format's reading reports of the file (its keys beside these), settled at the finish. */
  ...FormatReport.shape,
});
export type ReadResult = z.output<typeof ReadResult>;

/** A file the run read: where the location finds it, its name in reports, what was read. */
export interface FileRead {
  path: string;
  file: string;
  read: ReadResult;
}

/**
 * Every read of a run goes through its feed's location, so reports name files as it does.
 * `lines`: only those lines of a file (a retry run, `reconcile --repair`), the rest not read into
 * the run; absent, every line.
 */
export function exportOpener(location: Location, lines?: (path: string) => ReadonlySet<number>): Opener {
  return (feed, path) => {
    const stream = openRecords(feed, exportFile(location, path));
    return lines ? onlyLines(stream, lines(path)) : stream;
  };
}

export interface ReadInput {
  runId: string;
  feed: Feed;
  dryRun: boolean;
  /** How the run opens its files (exportOpener); the port may watch each file's reading. */
  open: Opener;
}

export interface ReadDeps extends Pick<ImportPorts, 'prepare' | 'predict'> {
  logger: Logger;
}

/**
 * The run's reading, the same for every runner: each file through the import (sync/import-file.ts:
 * rejected rows reported, chunks handed to `port.dispatch`), in order; returns what was read of
 * each file.
 */
export async function readFiles(
  paths: readonly string[],
  input: ReadInput,
  port: ReadPort,
  deps: ReadDeps,
): Promise<FileRead[]> {
  const reads: FileRead[] = [];
  for (const path of paths) {
    if (port.skip?.(path)) continue;
    const result = await importFile(input.feed, path, input.dryRun, {
      logger: deps.logger,
      run: port.run,
      open: port.watch?.(path, input.open) ?? input.open,
      dispatch: (chunk) => port.dispatch(chunk),
      prepare: deps.prepare,
      ...(deps.predict ? { predict: deps.predict } : {}),
    });
    reads.push({
      path,
      file: result.file,
      read: {
        records: result.records,
        sha256: result.sha256,
        ...(result.encoding ? { encoding: result.encoding } : {}),
        ...(result.sheet !== undefined ? { sheet: result.sheet } : {}),
        ...(result.cursor ? { cursor: result.cursor } : {}),
        ...result.report,
      },
    });
  }
  return reads;
}

/** A file read, as the run's end takes it (`name`: the file as reports name it). */
export function finishedFile(path: string, name: string, read: ReadResult): FinishedFile {
  const { records, sha256, encoding, sheet, cursor, ...report } = read;
  return {
    path,
    ...(cursor ? { cursor } : {}),
    reported: {
      path: name,
      sha256,
      records,
      ...(encoding ? { encoding } : {}),
      ...(sheet !== undefined ? { sheet } : {}),
    },
    report,
  };
}
