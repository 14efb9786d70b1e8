/**
 * What a process's heap holds live, beside its peak RSS: V8 lets garbage pile up in the old space
 * until a full (mark-compact) GC, and how far it lets it grow depends on timing and load, so the
 * peak RSS of the same read varies by 80 MB run to run while what survives each full GC does not.
 * Watches the full GCs and keeps the largest old space right after one: a measure of what is
 * retained (young objects allocated since the GC are not in the old space; objects promoted
 * between the GC and the observer's callback are, so it errs a little high).
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

export interface HeapWatch {
  /** The largest old space (kB) right after a full GC since the watch began, and how many there were; stops watching. */
  read(): { oldAfterFullGcKb: number; fullGcs: number };
}

export function watchHeap(): HeapWatch {
  let largest = 0;
  let fullGcs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind } = (entry as PerformanceEntry & { detail: { kind: number } }).detail;
      if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
      fullGcs++;
      const old = getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
      largest = Math.max(largest, old?.space_used_size ?? 0);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    read: () => {
      observer.disconnect();
      return { oldAfterFullGcKb: largest / 1024, fullGcs };
    },
  };
}
