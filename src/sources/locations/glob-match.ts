/**
 * The feed glob's wildcards for locations that list by name (SFTP directories, S3 keys): `*` is any
 * run of characters and `?` one character, neither crossing a `/`; everything else is literal.
 * Pure, so SFTP and S3 match names exactly as the local glob does.
 */

export function hasWildcard(text: string): boolean {
  return /[*?]/.test(text);
}

/** A test of a whole name or path against `pattern`; a `/` is only ever matched by a `/`. */
export function globMatcher(pattern: string): (name: string) => boolean {
  if (!hasWildcard(pattern)) return (name) => name === pattern;
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  const regex = new RegExp(`^${source}$`, 'u');
  return (name) => regex.test(name);
}

/** The text before the first wildcard: where a listing has to start (an S3 prefix). */
export function literalPrefix(pattern: string): string {
  const at = pattern.search(/[*?]/);
  return at < 0 ? pattern : pattern.slice(0, at);
}
