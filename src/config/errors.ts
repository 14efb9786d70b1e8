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

/** One line per zod issue: `key.path: message`. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(top level)';
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    return `${path}: ${issue.message}${keys}`;
  });
}
