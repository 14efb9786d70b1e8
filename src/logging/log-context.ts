import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

export type LogBindings = Readonly<Record<string, string | number>>;

const context = new AsyncLocalStorage<LogBindings>();

/**
 * Runs `fn` with `bindings` (runId, tenant, job, chunk …) added to every log line written while it
 * runs, by any logger made with createLogger. Why: the partner client is shared by every chunk of a
 * process and logs with its own logger, so without this its retry and alert lines could not be
 * traced to the run and chunk that made the call. Nested calls add to the outer bindings.
 */
export function withLogContext<T>(bindings: LogBindings, fn: () => T): T {
  return context.run({ ...context.getStore(), ...bindings }, fn);
}

/**
 * pino mixin: the context's bindings that the logger does not carry already (a child logger made
 * for the chunk binds the same fields; pino would otherwise write them twice). Fields of the log
 * call itself win over the mixin (pino's default merge).
 */
export function logContextMixin(_mergeObject: object, _level: number, logger: Logger): object {
  const store = context.getStore();
  if (!store) return {};
  const bound = logger.bindings();
  const missing: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(store)) if (!(key in bound)) missing[key] = value;
  return missing;
}
