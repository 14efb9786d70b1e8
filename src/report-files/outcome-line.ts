import * as z from 'zod';
import { OUTCOMES } from '../sync/outcome.js';

/**
 * One line of outcomes.ndjson as outcomeJsonLine (file-sink.ts) writes it, checked at the file's
 * edge for whoever reads the file back (the extra report, the console): it may have been edited,
 * truncated or written by another version. The run id and keys outcomes.csv does not have are
 * dropped (a reader writes or shows its run's own id).
 */
export const OutcomeLine = z.object({
  file: z.string(),
  line: z.int().nonnegative(),
  key: z.string().optional(),
  externalId: z.string().optional(),
  outcome: z.enum(OUTCOMES),
  serviceId: z.int().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  amount: z.string().optional(),
});
