import { readdir } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Expands a feed's source glob: `*` and `?` within path segments (no `**`), e.g.
 * /srv/exports/acme/bank-*.csv. Matches are files only, sorted by name, so runs are reproducible.
 */
export async function expandGlob(pattern: string): Promise<string[]> {
  const absolute = resolve(pattern);
  const parts = absolute.split(sep);
  const firstWild = parts.findIndex((p) => /[*?]/.test(p));
  if (firstWild < 0) return (await isFile(absolute)) ? [absolute] : [];
  let bases = [parts.slice(0, firstWild).join(sep) || sep];
  for (let i = firstWild; i < parts.length; i++) {
    const segment = parts[i] as string;
    const last = i === parts.length - 1;
    const matcher = segmentMatcher(segment);
    const next: string[] = [];
    for (const base of bases) {
      const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!matcher(entry.name)) continue;
        if (last ? entry.isFile() : entry.isDirectory()) next.push(join(base, entry.name));
      }
    }
    bases = next;
  }
  return bases.sort();
}

function segmentMatcher(segment: string): (name: string) => boolean {
  if (!/[*?]/.test(segment)) return (name) => name === segment;
  const source = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  const regex = new RegExp(`^${source}$`);
  return (name) => regex.test(name);
}

async function isFile(path: string): Promise<boolean> {
  const entries = await readdir(dirname(path), { withFileTypes: true }).catch(() => []);
  return entries.some((e) => e.isFile() && join(dirname(path), e.name) === path);
}

/**
 * Whether `file` (resolved to an absolute path first, so `..` cannot step out) is one the glob
 * names: same number of segments, each matching. For files named from outside the feed (an
 * operator's `enqueue --file`, a job): only the feed's own exports may be read.
 */
export function matchesGlob(pattern: string, file: string): boolean {
  const wanted = resolve(pattern).split(sep);
  const parts = resolve(file).split(sep);
  return (
    wanted.length === parts.length &&
    wanted.every((segment, i) => segmentMatcher(segment)(parts[i] as string))
  );
}
