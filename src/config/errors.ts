import type { z } from 'zod';

/** Invalid configuration or feed file: exit code 2. The message names the file, the key path and what was expected. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length ? `${message}\n  - ${problems.join('\n  - ')}` : message);
    this.name = 'ConfigError';
  }
}

/**
 * One line per zod issue: `key.path: message`; `under` names what the validated value was given as
 * when that is not a file's top level (a CLI flag: `--location.hostKey: ...`).
 */
export function describeIssues(error: z.ZodError, under?: string): string[] {
  return error.issues.map((issue) => {
    const path =
      [...(under === undefined ? [] : [under]), ...issue.path.map(String)].join('.') || '(top level)';
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    return `${path}: ${issue.message}${keys}`;
  });
}
