import * as nodeModule from 'node:module';

/** The part of `node:module` this needs: `enableCompileCache` exists on Node 22.1 and later only. */
export interface CompileCacheHost {
  readonly enableCompileCache?: (directory?: string) => unknown;
}

// @types/node 20 (our floor) does not declare it; Node 22's module object has it.
const thisNode = nodeModule as CompileCacheHost;

/**
 * Turns on Node's on-disk cache of compiled code (`module.enableCompileCache`, Node >= 22.1): each
 * start after the first reads the bundle's chunks compiled instead of compiling them (on Node 22,
 * side by side: docs/benchmarks.md "Start-up"). The cache lives where Node puts it by default,
 * `NODE_COMPILE_CACHE` or the OS temp folder's `node-compile-cache`, keyed by each file's content
 * (a new build never reads an old entry); `NODE_DISABLE_COMPILE_CACHE=1` turns it off. On Node 20
 * this does nothing. A folder it cannot write (a read-only file system) only leaves the cache off:
 * Node reports that as a status, and anything thrown is swallowed too, since a start must not fail
 * for a cache.
 */
export function enableCompileCache(host: CompileCacheHost = thisNode): void {
  try {
    host.enableCompileCache?.();
  } catch {
    // Without the cache, every chunk is compiled as on Node 20.
  }
}
