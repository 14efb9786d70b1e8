import * as z from 'zod';
import { CATEGORY_TYPES } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { accountRef } from '../account-route.js';

/** Separates a category path's names: `Revenue/Consulting` is "Consulting" under "Revenue". */
export const PATH_SEPARATOR = '/';

/** A path's names, each trimmed: `Revenue / Consulting` and `Revenue/Consulting` are one path. */
export const segmentsOf = (path: string): string[] => path.split(PATH_SEPARATOR).map((name) => name.trim());

/** The path as it is matched and reported: its names trimmed, joined by the separator. */
export const pathKey = (path: string): string => segmentsOf(path).join(PATH_SEPARATOR);

/** The path of the parent; undefined for a top-level category. */
export function parentPath(path: string): string | undefined {
  const names = segmentsOf(path);
  return names.length > 1 ? names.slice(0, -1).join(PATH_SEPARATOR) : undefined;
}

const CategoryPath = z
  .string()
  .min(1)
  .refine((path) => segmentsOf(path).every((name) => name !== ''), {
    message: `expected category names separated by "${PATH_SEPARATOR}" (e.g. Revenue/Consulting), none of them empty`,
  });

/** What one source record becomes: the path and type (the create body is built per record, parentId resolved). */
export const CategoryPayload = z.strictObject({
  path: CategoryPath,
  type: z.enum(CATEGORY_TYPES),
  accountExternalId: accountRef,
});
export type CategoryPayload = z.output<typeof CategoryPayload>;

export type CategoryRecord = MappedRecord<CategoryPayload>;
