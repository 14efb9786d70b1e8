import { hasWildcard } from '../glob.js';
import type { ArrivedListing } from './arrival.js';
import type { Location } from './location.js';
import { LocationError } from './location-error.js';

/** How many names of the glob's folder a message shows, nearest first. */
const NEAREST = 5;

/**
 * What a listing that found no export (none ready, none waiting for its arrival rule) means, and
 * whether the run may complete: a folder that does not exist is a wrong setting (stop, exit 2);
 * a glob that matches nothing stops too, unless the feed says no file is normal for it
 * (`source.allowNoFiles`). Either message names the glob and, when the folder exists, the names in
 * it nearest to what the glob asks for, so a typo (`umsaetze` for `Umsaetze`) shows at once.
 */
export interface NoFile {
  /** Stop the run (exit 2): `SOURCE_FOLDER_MISSING` or `NO_EXPORT_FILE`; false when allowed. */
  stop: false | 'SOURCE_FOLDER_MISSING' | 'NO_EXPORT_FILE';
  message: string;
}

export async function explainNoFile(
  location: Location,
  glob: string,
  allowNoFiles: boolean,
): Promise<NoFile> {
  const segments = glob.split('/');
  const wild = segments.findIndex(hasWildcard);
  const at = wild < 0 ? segments.length - 1 : wild;
  // The folder where the listing starts: its entries are what the glob's first pattern was
  // compared with. S3's root is the empty prefix.
  const folder = segments.slice(0, at).join('/') || (glob.startsWith('/') ? '/' : '');
  const wanted = segments[at] ?? '';
  const on = location.label === 'local' ? '' : ` on ${location.label}`;
  const names = await location.names(folder);
  if (names === undefined)
    return {
      stop: 'SOURCE_FOLDER_MISSING',
      message: `source folder ${folder}${on} does not exist (source.path ${glob}); check source.path`,
    };
  const shown = folder === '' ? 'the bucket root' : folder;
  const found =
    names.length === 0
      ? `${shown}${on} is empty`
      : `nearest names in ${shown}${on}: ${nearestNames(wanted, names).join(', ')}`;
  if (allowNoFiles)
    return {
      stop: false,
      message: `no export file matches ${glob} (allowed: source.allowNoFiles); ${found}`,
    };
  return {
    stop: 'NO_EXPORT_FILE',
    message: `no export file matches ${glob}; ${found} (if a run without a file is normal for this feed, set source.allowNoFiles: true)`,
  };
}

/**
 * A run's (or reconcile's) stop for no export at all: exit 2, as every wrong setting; or the
 * location's own code when listing the folder failed (a disk refusing it).
 */
export interface NoFileStop {
  code: string;
  message: string;
  exitCode: 1 | 2 | 3;
}

/**
 * The rule of `sync` and `reconcile` in process: a listing with no export ready and none waiting
 * for its arrival rule stops (explainNoFile), unless the feed allows no file: then `allowed` is
 * the message to say (and keep in the summary). Neither when files were listed. A location that
 * fails listing the folder stops with its own code.
 */
export async function noFileRule(
  location: Location,
  glob: string,
  listing: ArrivedListing,
  source: { allowNoFiles?: boolean | undefined },
): Promise<{ stop?: NoFileStop; allowed?: string }> {
  if (listing.ready.length > 0 || listing.waiting.length > 0) return {};
  let noFile: NoFile;
  try {
    noFile = await explainNoFile(location, glob, source.allowNoFiles === true);
  } catch (error) {
    if (!(error instanceof LocationError)) throw error;
    return { stop: { code: error.code, message: error.message, exitCode: error.exitCode } };
  }
  return noFile.stop
    ? { stop: { code: noFile.stop, message: noFile.message, exitCode: 2 } }
    : { allowed: noFile.message };
}

/** The names closest to the glob segment `wanted`, nearest first (ties by name). */
export function nearestNames(wanted: string, names: readonly string[]): string[] {
  return names
    .map((name) => ({ name, distance: globDistance(wanted.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, NEAREST)
    .map((n) => n.name);
}

/**
 * Edits (insert, delete, substitute one character) that make `name` match the glob segment
 * `pattern`, where `*` matches any run of characters and `?` any one, at no cost: `bank-*.csv`
 * is 1 from `bank_2026.csv` and 0 from `bank-2026.csv`.
 */
export function globDistance(pattern: string, name: string): number {
  const p = [...pattern];
  const t = [...name];
  // row[j]: the cost of matching the pattern so far with t's first j characters.
  let row = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (const c of p) {
    const next = new Array<number>(t.length + 1);
    next[0] = c === '*' ? (row[0] as number) : (row[0] as number) + 1;
    for (let j = 1; j <= t.length; j++) {
      const up = row[j] as number;
      const diagonal = row[j - 1] as number;
      const left = next[j - 1] as number;
      next[j] =
        c === '*'
          ? Math.min(up, left)
          : Math.min(up + 1, left + 1, diagonal + (c === '?' || c === t[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[t.length] as number;
}
