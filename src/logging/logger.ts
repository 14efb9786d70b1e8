import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import { logContextMixin } from './log-context.js';
import { secrets } from './secret-scrubber.js';

/** Keys whose values are secrets wherever they appear in a log object. */
export const SECRET_KEYS = [
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'token',
  'initToken',
  'password',
  'authorization',
  'Authorization',
  // An alert webhook URL may carry its secret in the path (ERP_BRIDGE_ALERT_WEBHOOK_URL).
  'webhookUrl',
] as const;

/**
 * pino redaction paths: each secret key at the top level and up to three levels down
 * (`*.client_secret`, `req.headers.authorization`, `ctx.req.headers.authorization`). pino's
 * wildcards match exactly one level, so the depths are spelled out; nothing we log nests deeper.
 */
export const REDACT_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => [
  key,
  `*.${key}`,
  `*.*.${key}`,
  `*.*.*.${key}`,
]);

export const REDACTED = '[REDACTED]';

const WARN = 40;

const isFields = (arg: unknown): arg is Record<string, unknown> =>
  typeof arg === 'object' && arg !== null && !(arg instanceof Error) && !Array.isArray(arg);

/**
 * A log call's fields without those a child logger binds already: pino writes the bindings and
 * the call's fields side by side, so `logger.child({ tenant }).error({ tenant })` would carry the
 * key twice (JSON.parse keeps the last, log shippers differ). The same value is dropped; a
 * different one is kept under `call` ({"tenant":0,…,"call":{"tenant":1001}}), never lost.
 */
function withoutBound(fields: Record<string, unknown>, logger: Logger): Record<string, unknown> {
  const bound = logger.bindings();
  let result: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    if (!(key in bound)) continue;
    result ??= { ...fields };
    const value = result[key];
    delete result[key];
    if (value !== bound[key]) result.call = { ...(result.call as object | undefined), [key]: value };
  }
  return result ?? fields;
}

/** A log call's message (or format argument) scrubbed; objects go to the serializers and redaction. */
const scrubArg = (arg: unknown): unknown => (typeof arg === 'string' ? secrets.scrub(arg) : arg);

export interface LoggerOptions {
  /** Default 'info'; 'silent' for tests and library defaults. */
  level?: Level | 'silent';
  /** Added as `name` to every line (e.g. 'erp-bridge'). */
  name?: string;
  /** Where JSON lines go; default stdout. Tests pass a stream to read what was logged. */
  destination?: DestinationStream;
  /** Fields on every line, e.g. `{ runId }`. */
  base?: Record<string, unknown>;
}

/**
 * The one way to make a logger: JSON lines, secrets redacted by key. Redaction is the safety net;
 * the client also never puts a token or the client secret into a log object or a message.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      ...(options.name === undefined ? {} : { name: options.name }),
      base: options.base ?? {},
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      // Keys redact known fields; text from outside (an error's message, stack and causes, or a
      // warning's message built from one) is scrubbed of every form of the process's secrets.
      // Only errors and warn+ messages pay for it, not every line.
      serializers: { err: (error: unknown) => secrets.scrubDeep(pino.stdSerializers.err(error as Error)) },
      hooks: {
        logMethod(args, method, level) {
          const [fields] = args;
          if (isFields(fields)) args[0] = withoutBound(fields, this);
          if (level >= WARN) for (let i = 0; i < args.length; i++) args[i] = scrubArg(args[i]);
          return method.apply(this, args);
        },
      },
      // runId, tenant, job and chunk of the work in progress (withLogContext), on every line.
      mixin: logContextMixin,
      // Level names instead of numbers: the lines are read by people and by log queries alike.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
