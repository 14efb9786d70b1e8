import { LIMITS, type Page } from '../contract/index.js';

/** Answers a paginated list per the spec: 0-based page, default size 50, totalPages = ceil(total/size). */
export function paginate<T>(
  items: readonly T[],
  query: { page?: number; pageSize?: number } | undefined,
): Page<T> & { success: true } {
  const page = query?.page ?? LIMITS.page.defaultPage;
  const size = query?.pageSize ?? LIMITS.page.defaultPageSize;
  const start = page * size;
  return {
    success: true,
    message: 'OK',
    number: page,
    size,
    totalElements: items.length,
    totalPages: Math.ceil(items.length / size),
    data: items.slice(start, start + size),
  };
}
