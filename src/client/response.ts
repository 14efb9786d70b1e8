import type { z } from 'zod';
import { type Cause, Cause as CauseSchema, compiled, ExceptionDetails } from '../contract/index.js';
import { ApiError, adviceForStatus, CLIENT_ERROR_CODES, target } from './errors.js';
import type { HttpResponse } from './transport.js';

const MAX_ISSUES = 5;
const MAX_SERVICE_MESSAGE = 300;

/** Who asked: names the operation and tenant in every error. */
export interface CallContext {
  operation: string;
  accountId: number | undefined;
  /** Whether a failed call may be resent blindly (see retry-policy.ts isIdempotent). */
  idempotent: boolean;
  attempts: number;
}

/** "data[3].id: Invalid input: expected int; message: Required" — paths and messages, never values. */
export function issuesText(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return `${shown.join('; ')}${more}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/**
 * Parses a 2xx body with the operation's tolerant response schema. A body that is not JSON or does
 * not match raises MALFORMED_RESPONSE naming the operation and the zod issue paths. After a write
 * the write has happened but its outcome is unknown, so the error is marked ambiguous.
 */
export function parseSuccess<T extends z.ZodType>(
  ctx: CallContext,
  schema: T,
  response: HttpResponse,
): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch {
    throw malformed(ctx, response.status, `a body that is not JSON (${response.text.length} characters)`);
  }
  const parsed = compiled(schema).safeParse(json);
  if (!parsed.success) {
    throw malformed(
      ctx,
      response.status,
      `a body that does not match the contract: ${issuesText(parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

function malformed(ctx: CallContext, status: number, what: string): ApiError {
  const advice = ctx.idempotent
    ? 'the service (or a proxy in front of it) answered out of contract; report it'
    : 'the write may have been applied; re-check what exists before sending it again, and report the answer to the service';
  return new ApiError({
    kind: 'malformed_response',
    code: CLIENT_ERROR_CODES.MALFORMED_RESPONSE,
    operation: ctx.operation,
    accountId: ctx.accountId,
    status,
    attempts: ctx.attempts,
    ambiguous: !ctx.idempotent,
    message: `${target(ctx.operation, ctx.accountId)}: the service answered ${status} with ${what}; ${advice}`,
  });
}

export interface ErrorBody {
  code: string | undefined;
  message: string | undefined;
  causes: Cause[];
}

/**
 * Reads an ExceptionDetails body tolerantly: a body missing `timestamp`, with odd `causes` or not
 * JSON at all still yields whatever usable fields it has, so every non-2xx becomes an ApiError.
 */
export function readErrorBody(text: string): ErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { code: undefined, message: undefined, causes: [] };
  }
  const full = ExceptionDetails.safeParse(json);
  if (full.success)
    return { code: full.data.error, message: full.data.message, causes: full.data.causes ?? [] };
  if (typeof json !== 'object' || json === null) return { code: undefined, message: undefined, causes: [] };
  const record = json as Record<string, unknown>;
  const causes = CauseSchema.array().safeParse(record.causes);
  return {
    code: typeof record.error === 'string' && record.error !== '' ? record.error : undefined,
    message: typeof record.message === 'string' ? record.message : undefined,
    causes: causes.success ? causes.data : [],
  };
}

/** The service's message, shortened; `scrub` removes our secrets should the service echo one. */
export function serviceMessage(body: ErrorBody, scrub: (text: string) => string): string {
  if (!body.message) return '';
  const text = scrub(body.message);
  return text.length > MAX_SERVICE_MESSAGE ? `${text.slice(0, MAX_SERVICE_MESSAGE)}…` : text;
}

/** A non-2xx answer as an ApiError of kind 'service' (code: the service's, else HTTP_<status>). */
export function serviceError(
  ctx: CallContext,
  status: number,
  body: ErrorBody,
  scrub: (text: string) => string,
  extra: { retryAfterMs?: number | undefined } = {},
): ApiError {
  // A 429 without a body code still means "rate limited": keep one stable code for it.
  const code = body.code ?? (status === 429 ? CLIENT_ERROR_CODES.RATE_LIMITED : `HTTP_${status}`);
  const said = serviceMessage(body, scrub);
  return new ApiError({
    kind: status === 429 ? 'rate_limited' : 'service',
    code,
    operation: ctx.operation,
    accountId: ctx.accountId,
    status,
    serviceCode: body.code,
    causes: body.causes,
    retryAfterMs: extra.retryAfterMs,
    attempts: ctx.attempts,
    message: `${target(ctx.operation, ctx.accountId)}: the service answered ${status} ${code}${said ? ` (${said})` : ''}; ${adviceForStatus(status)}`,
  });
}
