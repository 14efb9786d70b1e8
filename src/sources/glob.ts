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
