import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what survived the last full collection: at most 2x (V8's
 * default picks up to 4x when allocation is fast). A sync allocates quickly and keeps little (its
 * records live for a chunk), so with the default most of its peak RSS was garbage waiting for the
 * next full collection. Measured side by side (docs/benchmarks.md): 1,000,000 CSV rows peak at
 * 197 MB instead of 259 MB for about 5% more CPU (noisy), the 1 GB camt file at 230 MB instead of
 * 322 MB at 3% less speed. The worker processes run the same code, so they get the same bound.
 */
export const HEAP_GROWING_PERCENT = 100;

/** Node flags that size the heap: where the user chose one, we leave V8's sizing to them. */
const HEAP_SIZING =
  /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size|max[-_]semi[-_]space[-_]size)(=|$)/;

/** The V8 flag to set, or undefined when the process was started with heap sizing of its own. */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions: string): string | undefined {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => HEAP_SIZING.test(arg));
  return given ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/** Bounds the heap's growth for this process (V8 reads the factor at each collection). */
export function boundHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv, process.env.NODE_OPTIONS ?? '');
  if (flag) setFlagsFromString(flag);
}
