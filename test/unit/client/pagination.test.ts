import { describe, expect, it } from 'vitest';
import { iteratePages } from '../../../src/client/pagination.js';
import type { Page } from '../../../src/contract/index.js';

function pageOf(number: number, totalPages: number, data: number[]): Page<number> {
  return { success: true, message: 'ok', number, size: data.length, totalElements: 0, totalPages, data };
}

/** Serves `pages` by index and records which pages were requested. */
function server(pages: Array<Page<number>>) {
  const requested: number[] = [];
  const fetchPage = async (page: number) => {
    requested.push(page);
    const found = pages[page];
    if (!found) throw new Error(`page ${page} requested past the end`);
    return found;
  };
  return { requested, fetchPage };
}

async function collect(iterable: AsyncIterable<Page<number>>): Promise<number[]> {
  const items: number[] = [];
  for await (const p of iterable) items.push(...p.data);
  return items;
}

describe('iteratePages (spec iteration rule)', () => {
  it('requests pages 0..totalPages-1 in order and stops at the last', async () => {
    const { requested, fetchPage } = server([pageOf(0, 3, [1, 2]), pageOf(1, 3, [3, 4]), pageOf(2, 3, [5])]);
    expect(await collect(iteratePages(fetchPage))).toEqual([1, 2, 3, 4, 5]);
    expect(requested).toEqual([0, 1, 2]);
  });

  it('stops on an empty page even when totalPages says more', async () => {
    const { requested, fetchPage } = server([pageOf(0, 5, [1]), pageOf(1, 5, []), pageOf(2, 5, [9])]);
    expect(await collect(iteratePages(fetchPage))).toEqual([1]);
    expect(requested).toEqual([0, 1]);
  });

  it('stops after the first page when totalPages is 0, and still yields it', async () => {
    const { requested, fetchPage } = server([pageOf(0, 0, [])]);
    const pages: Array<Page<number>> = [];
    for await (const p of iteratePages(fetchPage)) pages.push(p);
    expect(pages).toHaveLength(1);
    expect(requested).toEqual([0]);
  });

  it('stops after one page when totalPages is 1', async () => {
    const { requested, fetchPage } = server([pageOf(0, 1, [1, 2]), pageOf(1, 1, [3])]);
    expect(await collect(iteratePages(fetchPage))).toEqual([1, 2]);
    expect(requested).toEqual([0]);
  });

  it('does not walk past the end when totalPages shrinks while iterating', async () => {
    const { requested, fetchPage } = server([pageOf(0, 4, [1]), pageOf(1, 1, [2]), pageOf(2, 4, [3])]);
    expect(await collect(iteratePages(fetchPage))).toEqual([1, 2]);
    expect(requested).toEqual([0, 1]);
  });

  it('can start at a later page', async () => {
    const { requested, fetchPage } = server([pageOf(0, 3, [1]), pageOf(1, 3, [2]), pageOf(2, 3, [3])]);
    expect(await collect(iteratePages(fetchPage, 1))).toEqual([2, 3]);
    expect(requested).toEqual([1, 2]);
  });
});
