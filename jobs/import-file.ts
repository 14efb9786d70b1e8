import { z } from 'zod';
import { Feed } from '../src/config/feed.js';
import { type ImportPorts, type ImportResult, importFile } from '../src/sync/import-file.js';
import type { JobContext, JobDefinition } from './job.js';

export const ImportFilePayload = z.strictObject({
  runId: z.string().min(1),
  feed: Feed,
  /** The export's path where the runner's location finds it (local: absolute). */
  file: z.string().min(1),
  dryRun: z.boolean().default(false),
});
export type ImportFilePayload = z.output<typeof ImportFilePayload>;

export type ImportFileContext = JobContext & Omit<ImportPorts, 'run'>;

/** Reads one export file, reports rejected rows, and dispatches chunks of at most 1000 records. */
export const importFileJob: JobDefinition<ImportFilePayload, ImportFileContext, ImportResult> = {
  name: 'import-file',
  payload: ImportFilePayload,
  run: (payload, ctx) => importFile(payload.feed, payload.file, payload.dryRun, ctx),
};
