import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';

/** A path the glob matched but cannot use: a symbolic link loop, a dangling link, a second name of a file. */
export interface GlobProblem {
  path: string;
  problem: string;
}

/**
 * Expands a feed's source glob: `*` and `?` within path segments (no `**`), e.g.
 * /srv/exports/acme/bank-*.csv. Matches are files only, sorted by name, so runs are reproducible.
 * Symbolic links are followed (exports are often linked into the feed's folder); a link that
 * loops or points nowhere is reported to `onProblem` and left out, and a file reached under two
 * names (a link beside its target) is read once, under its first name.
 */
export async function expandGlob(
  pattern: string,
  onProblem: (problem: GlobProblem) => void = () => {},
): Promise<string[]> {
  const absolute = resolve(pattern);
  const parts = absolute.split(sep);
  const firstWild = parts.findIndex((p) => /[*?]/.test(p));
  if (firstWild < 0) return (await kindOf(absolute, onProblem)) === 'file' ? [absolute] : [];
  let bases = [parts.slice(0, firstWild).join(sep) || sep];
  for (let i = firstWild; i < parts.length; i++) {
    const segment = parts[i] as string;
    const last = i === parts.length - 1;
    const matcher = segmentMatcher(segment);
    const next: string[] = [];
    for (const base of bases) {
      const entries: Dirent[] = await readdir(base, { withFileTypes: true }).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return [];
        // The glob's own folder refused (permissions): the listing fails, not "no file". A
        // sub-folder a wildcard reached is left out, said as a problem.
        if (i === firstWild) throw error;
        onProblem({ path: base, problem: `folder cannot be read: ${(error as Error).message}` });
        return [];
      });
      for (const entry of entries) {
        if (!matcher(entry.name)) continue;
        const path = join(base, entry.name);
        const kind = entry.isSymbolicLink()
          ? await kindOf(path, onProblem)
          : entry.isFile()
            ? 'file'
            : entry.isDirectory()
              ? 'directory'
              : 'other';
        if (kind === (last ? 'file' : 'directory')) next.push(path);
      }
    }
    bases = next;
  }
  return onceEach(bases.sort(), onProblem);
}

type Kind = 'file' | 'directory' | 'other' | 'missing';

/** What a path is once its links are followed; a loop or a dangling link is reported. */
async function kindOf(path: string, onProblem: (problem: GlobProblem) => void): Promise<Kind> {
  try {
    const info = await stat(path);
    return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      onProblem({ path, problem: 'symbolic link loop (it leads back to itself); not read' });
    else if (code === 'ENOENT') {
      // A plain missing path is simply no match; only a link whose target is gone is worth a word.
      const linked = await realpath(path).catch((e: NodeJS.ErrnoException) => e.code);
      if (linked === 'ENOENT' && (await isLink(path)))
        onProblem({ path, problem: 'symbolic link to a missing file; not read' });
    } else onProblem({ path, problem: `cannot be read: ${(error as Error).message}` });
    return 'missing';
  }
}

async function isLink(path: string): Promise<boolean> {
  return lstat(path).then(
    (info) => info.isSymbolicLink(),
    () => false,
  );
}

/** The matches with each real file once: reading a file twice under two names would double it. */
async function onceEach(paths: string[], onProblem: (problem: GlobProblem) => void): Promise<string[]> {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const path of paths) {
    const real = await realpath(path).catch(() => path);
    const first = seen.get(real);
    if (first !== undefined) {
      onProblem({ path, problem: `the same file as ${first} (a symbolic link); read once, as ${first}` });
      continue;
    }
    seen.set(real, path);
    out.push(path);
  }
  return out;
}

/**
 * The matcher of one glob segment: `*` any run of characters and `?` one character, never a `/`.
 * The one matcher of the bridge: local globs and the listings of remote locations use it.
 */
export function segmentMatcher(segment: string): (name: string) => boolean {
  if (!hasWildcard(segment)) return (name) => name === segment;
  const source = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  // `u`: a `?` is one character, also one outside the BMP (an emoji is two UTF-16 units).
  const regex = new RegExp(`^${source}$`, 'u');
  return (name) => regex.test(name);
}

/** Whether a glob (or one segment of it) has a wildcard: `*` or `?`. */
export const hasWildcard = (text: string): boolean => /[*?]/.test(text);

/**
 * A pure matcher of `/`-separated paths (an SFTP server's paths, an S3 bucket's keys): same number
 * of segments, each matching its glob segment. Nothing is resolved: the path is taken as given,
 * so one with a `.` or `..` segment (which a server would resolve out of the glob's folder) never
 * matches.
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  const wanted = pattern.split('/').map(segmentMatcher);
  return (path) => {
    const parts = path.split('/');
    return (
      parts.length === wanted.length &&
      !parts.some((p) => p === '.' || p === '..') &&
      wanted.every((match, i) => match(parts[i] as string))
    );
  };
}

/** The part of a `/`-separated glob before its first wildcard segment (where a listing starts). */
export function globBase(pattern: string): string {
  const parts = pattern.split('/');
  const firstWild = parts.findIndex((p) => /[*?]/.test(p));
  return firstWild < 0 ? pattern : parts.slice(0, firstWild).join('/');
}

/**
 * Whether `file` (resolved to an absolute path first, so `..` cannot step out) is one the glob
 * names: same number of segments, each matching. For files named from outside the feed (an
 * operator's `enqueue --file`, a job): only the feed's own exports may be read.
 */
export function matchesGlob(pattern: string, file: string): boolean {
  const posix = (path: string) => resolve(path).split(sep).join('/');
  return globMatcher(posix(pattern))(posix(file));
}
