import type { Clock } from '../../time/clock.js';
import type { LocatedFile, Location } from './location.js';
import type { Arrival } from './source-keys.js';

/** A listed export that does not count as arrived yet, and why. */
export interface WaitingFile {
  path: string;
  reason: string;
}

/** A feed's listing sorted by arrival: files to import now, and files still being written. */
export interface ArrivedListing {
  ready: LocatedFile[];
  waiting: WaitingFile[];
}

/**
 * What earlier listings saw of each file (size, mtime, since when unchanged): a `stable` file has
 * arrived once a listing finds it as a listing at least `stableAfterSeconds` before did. The
 * scheduler's watch keeps one per feed across its polls; a one-shot run lists twice.
 */
export class ArrivalMemory {
  private readonly seen = new Map<string, { size: number; mtimeMs: number; since: number }>();

  /** Notes this listing; returns the files unchanged for at least `stableMs`. */
  observe(files: readonly LocatedFile[], now: number, stableMs: number): ArrivedListing {
    const listed = new Set<string>();
    const out: ArrivedListing = { ready: [], waiting: [] };
    for (const file of files) {
      listed.add(file.path);
      const before = this.seen.get(file.path);
      if (!before || before.size !== file.size || before.mtimeMs !== file.mtimeMs)
        this.seen.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, since: now });
      const since = this.seen.get(file.path)?.since ?? now;
      if (before && now - since >= stableMs) out.ready.push(file);
      else
        out.waiting.push({
          path: file.path,
          reason: before
            ? `still changing (size ${before.size} → ${file.size} bytes or a new mtime); waits until unchanged for ${stableMs / 1000} s`
            : `seen for the first time; waits until its size and mtime are unchanged for ${stableMs / 1000} s`,
        });
    }
    // A file gone from the listing (imported and moved, or deleted) is forgotten.
    for (const path of this.seen.keys()) if (!listed.has(path)) this.seen.delete(path);
    return out;
  }
}

export interface ArrivalOptions {
  clock: Clock;
  /** The scheduler's memory of earlier polls; without it (a one-shot run) `stable` lists twice. */
  memory?: ArrivalMemory;
  signal?: AbortSignal;
}

/**
 * The exports of `glob` on `location` that have arrived by the feed's rule (source-keys.ts):
 * `immediate` takes every listed file; `stable` compares two listings `stableAfterSeconds` apart;
 * `marker` takes a file once `<name><suffix>` exists, and never takes a marker as an export.
 */
export async function listArrived(
  location: Location,
  glob: string,
  arrival: Arrival,
  options: ArrivalOptions,
): Promise<ArrivedListing> {
  switch (arrival.type) {
    case 'immediate':
      return { ready: await location.list(glob), waiting: [] };
    case 'marker': {
      const markers = new Set((await location.list(`${glob}${arrival.suffix}`)).map((m) => m.path));
      const out: ArrivedListing = { ready: [], waiting: [] };
      for (const file of await location.list(glob)) {
        if (file.path.endsWith(arrival.suffix)) continue;
        if (markers.has(`${file.path}${arrival.suffix}`)) out.ready.push(file);
        else
          out.waiting.push({ path: file.path, reason: `no marker file ${file.path}${arrival.suffix} yet` });
      }
      return out;
    }
    case 'stable': {
      const stableMs = arrival.stableAfterSeconds * 1000;
      const { clock } = options;
      if (options.memory) return options.memory.observe(await location.list(glob), clock.now(), stableMs);
      const memory = new ArrivalMemory();
      const first = memory.observe(await location.list(glob), clock.now(), stableMs);
      if (first.waiting.length === 0) return first;
      await clock.sleep(stableMs, options.signal);
      return memory.observe(await location.list(glob), clock.now(), stableMs);
    }
  }
}

/** The marker file of an export, when its feed waits for markers (moved and removed with it). */
export function markerOf(arrival: Arrival, path: string): string | undefined {
  return arrival.type === 'marker' ? `${path}${arrival.suffix}` : undefined;
}
