import type { z } from 'zod';
import { ConfigError, describeIssues } from './errors.js';

/**
 * Parses environment variables with `schema`; an empty value counts as unset (compose files and
 * shells pass them that way). A ConfigError names each variable at fault and what was expected,
 * never its value: some are secrets.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, title: string): z.output<S> {
  const parsed = schema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== '')),
  );
  if (!parsed.success) throw new ConfigError(title, describeIssues(parsed.error));
  return parsed.data;
}
