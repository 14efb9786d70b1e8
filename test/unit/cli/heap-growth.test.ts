import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../../src/cli/heap-growth.js';

describe('the CLI bounds heap growth unless the user sized the heap', () => {
  it('sets the growth factor by default', () => {
    expect(heapGrowthFlag([], '')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--trace-warnings')).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('leaves V8 alone where node was started with heap sizing, on the command line or in NODE_OPTIONS', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=0'], '')).toBeUndefined();
    expect(heapGrowthFlag(['--heap_growing_percent=50'], '')).toBeUndefined();
    expect(heapGrowthFlag([], '--max-old-space-size=512')).toBeUndefined();
    expect(heapGrowthFlag([], '--enable-source-maps --max_semi_space_size=32')).toBeUndefined();
  });

  it('is not fooled by flags that only start alike', () => {
    expect(heapGrowthFlag(['--max-old-space-size-x=1'], '')).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });
});
