/**
 * .dockerignore semantics (moby's patternmatcher): patterns relative to the context root, `*` and
 * `?` within one path segment, `**` across segments, `!` re-includes; a pattern that matches a
 * folder excludes everything in it; the last matching pattern wins.
 */

interface Rule {
  pattern: RegExp;
  include: boolean;
}

/** A Docker path pattern (.dockerignore, COPY sources) as an anchored regular expression. */
export function dockerPathPattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` may match no folder at all; a trailing `**` matches everything below.
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Relative to the context root, with / separators and no ./, leading or trailing slash. */
export function contextPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/|\/)+/, '')
    .replace(/\/+$/, '')
    .replace(/\/\.\//g, '/');
}

/** `(path) => true` when the build context leaves `path` (relative to the context root) out. */
export function dockerIgnoreMatcher(text: string): (path: string) => boolean {
  const rules: Rule[] = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      return { pattern: dockerPathPattern(contextPath(include ? line.slice(1).trim() : line)), include };
    });
  return (path) => {
    const segments = contextPath(path).split('/');
    // The path itself and each folder above it: excluding a folder excludes its content.
    const candidates = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.pattern.test(candidate))) excluded = !rule.include;
    }
    return excluded;
  };
}
