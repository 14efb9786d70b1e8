import type { Logger } from 'pino';
import type { Feed } from '../config/feed.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import { type IdentityStore, storeBeforeFirstWrite } from '../sync/identity/check.js';
import type { RunPort } from '../sync/run/run-port.js';
import { type MemoryDispatchDeps, memoryDispatch } from './memory-dispatch.js';
import type { MemoryRun, ProgressListener } from './memory-run.js';
import { withReadProgress } from './read-progress.js';
import { untilInterrupted } from './until-interrupted.js';

export interface MemoryPortDeps extends MemoryDispatchDeps {
  onProgress?: ProgressListener;
  /** Where the feeds' identity settings are kept: the run's are stored before its first write. */
  identity?: { store: IdentityStore };
}

/** The run a memory port is for: its feed, where its exports lie, what closes once its chunks settled. */
export interface ProcessRun {
  feed: Feed;
  /** Names the files an interrupt left unread; absent (a database feed): its path is its name. */
  location?: Location;
  /** Once every chunk has settled (the dry run's would-send file closed). */
  drained?(): Promise<void>;
}

/**
 * The in-process runner's RunPort: chunks wait for the memory gate and run in this process
 * (memory-dispatch.ts; the run's end waits for each one that got its slot), the user's interrupt
 * reads no further file and cuts the one being read (untilInterrupted), outcomes and the summary
 * are kept by MemoryRun and its report files.
 */
export function memoryPort(run: MemoryRun, of: ProcessRun, deps: MemoryPortDeps, logger: Logger): RunPort {
  const { location, feed } = of;
  const { interrupt, identity } = deps;
  const dispatch = memoryDispatch(run, feed, deps, logger);
  const inFlight = new Set<Promise<void>>();
  const interrupted = () => interrupt?.aborted === true;
  // Per file read: where reading stopped on an interrupt (the summary names the line).
  const readings = new Map<string, { lastLine: number; stopped: boolean }>();
  return {
    ...run.kept,
    dispatch: (chunk) =>
      dispatch(chunk, (task) => {
        inFlight.add(task);
        void task.finally(() => inFlight.delete(task));
      }),
    drain: async () => {
      await Promise.all(inFlight);
      await of.drained?.();
    },
    skip: interrupted,
    watch: (path, open) => {
      const reading = { lastLine: 0, stopped: false };
      readings.set(path, reading);
      return withReadProgress(interrupt ? untilInterrupted(interrupt, reading, open) : open, deps.onProgress);
    },
    interrupted: (paths, reads) => {
      if (!interrupted()) return undefined;
      const readAt = new Map(reads.map((r) => [r.path, r]));
      const unread = paths.flatMap((path) => {
        const read = readAt.get(path);
        if (!read) return [{ path: location ? nameOf(location, path) : path, readUpToLine: 0 }];
        const reading = readings.get(path);
        return reading?.stopped ? [{ path: read.file, readUpToLine: reading.lastLine }] : [];
      });
      return { signal: String(interrupt?.reason), unread };
    },
    expectWrites: async (settings) => {
      if (identity) run.beforeWrite = storeBeforeFirstWrite(() => identity.store.save(feed.name, settings));
    },
  };
}
