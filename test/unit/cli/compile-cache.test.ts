import { describe, expect, it } from 'vitest';
import { enableCompileCache } from '../../../src/cli/compile-cache.js';

describe("enableCompileCache (Node's compile cache, where Node has one)", () => {
  it("turns on Node's cache in its default folder", () => {
    const calls: unknown[][] = [];
    enableCompileCache({ enableCompileCache: (...args: unknown[]) => calls.push(args) });
    expect(calls).toEqual([[]]);
  });

  it('does nothing on a Node without it (Node 20)', () => {
    expect(() => enableCompileCache({})).not.toThrow();
  });

  it('never fails a start: a cache that cannot be written leaves it off', () => {
    const readOnly = () => {
      throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    };
    expect(() => enableCompileCache({ enableCompileCache: readOnly })).not.toThrow();
  });

  it("calls this Node's own (a no-op below 22.1)", () => {
    expect(() => enableCompileCache()).not.toThrow();
  });
});
