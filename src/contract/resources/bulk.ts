import * as z from 'zod';
import { Cause } from '../errors.js';

/**
 * One entry of a bulk response's `errors`. Fields not shown by the spec; assumption: the item's
 * position in the request (`index`), its externalId when it had one, an error code, a message and
 * the validation causes. Tolerant, so whatever the service sends is kept.
 */
export const BulkItemError = z.looseObject({
  index: z.int().optional(),
  externalId: z.string().nullable().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  causes: z.array(Cause).optional(),
});
export type BulkItemError = z.output<typeof BulkItemError>;
