import * as z from 'zod';
import { columnRef } from './field-mapping.js';

/** A feed's `exclude` rule: rows left out on purpose (the mapper reports them skipped, with the rule). */
export const RowFilter = z.strictObject({
  column: columnRef,
  equals: z.string().optional(),
  matches: z.string().optional(),
});
export type RowFilter = z.output<typeof RowFilter>;
