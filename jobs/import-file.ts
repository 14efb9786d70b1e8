import * as z from 'zod';
import { Feed } from '../src/config/feed.js';

/**
 * What an import of one export file is given (the fleet's import job data builds on it): the
 * run, the feed, the file and whether it is a dry run. The import itself is the core's
 * (`importFile` in src/sync/import-file.ts, called by the run's read step): the core never imports
 * jobs/, which imports the core.
 */
export const ImportFilePayload = z.strictObject({
  runId: z.string().min(1),
  feed: Feed,
  /** The export's path where the runner's location finds it (local: absolute). */
  file: z.string().min(1),
  dryRun: z.boolean().default(false),
});
export type ImportFilePayload = z.output<typeof ImportFilePayload>;
