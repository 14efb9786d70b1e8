import * as z from 'zod';
import { LIMITS } from './limits.js';
import { int64, queryInt } from './primitives.js';

/** Query parameters of every paginated endpoint. */
export const PageQuery = z.strictObject({
  page: queryInt().check(z.gte(0)).optional(),
  pageSize: queryInt().check(z.gte(LIMITS.page.minPageSize), z.lte(LIMITS.page.maxPageSize)).optional(),
});
export type PageQuery = z.output<typeof PageQuery>;

/** Response envelopes are tolerant: unknown fields are kept (loose objects). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    success: z.boolean(),
    message: z.string(),
    number: z.int(),
    size: z.int(),
    totalElements: z.int(),
    totalPages: z.int(),
    data: z.array(item),
  });
}
export type Page<T> = {
  success: boolean;
  message: string;
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
  data: T[];
};

export function itemOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ success: z.boolean(), message: z.string(), data: item });
}

/** `data` without a paging frame (list bank accounts). */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ success: z.boolean(), message: z.string(), data: z.array(item) });
}

export const DeleteEnvelope = z.looseObject({ success: z.boolean(), message: z.string(), id: int64 });
export type DeleteEnvelope = z.output<typeof DeleteEnvelope>;
