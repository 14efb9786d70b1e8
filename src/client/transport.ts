import { performance } from 'node:perf_hooks';
import type { Agent as AgentInstance, Dispatcher } from 'undici';
import { abortReason } from '../time/clock.js';
import { Agent } from './undici-agent.js';

export interface TransportOptions {
  /** TCP/TLS connect timeout. */
  connectTimeoutMs: number;
  /** Time to wait for the response headers once the request is sent. */
  headersTimeoutMs: number;
  /** Longest pause between two body chunks. */
  bodyTimeoutMs: number;
  /** Keep-alive connections per origin. */
  connections: number;
}

/**
 * One undici Agent for the client; it keeps one keep-alive Pool of `connections` sockets per origin,
 * so the API host and the authorization server (often a different host) each get their own pool
 * and every tenant shares them.
 */
export function createAgent(options: TransportOptions): AgentInstance {
  return new Agent({
    connections: options.connections,
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  durationMs: number;
}

/**
 * How a request failed without an HTTP answer. `sent` is what matters for writes: a connection
 * that was never established carried no request, so resending is safe; after a reset or a timeout
 * the service may have received and applied it.
 */
export type TransportFailure = 'unreachable' | 'timeout' | 'network';

export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly failure: TransportFailure,
    readonly sent: boolean,
    readonly errorCode: string | undefined,
    cause: unknown,
  ) {
    super(`${failure}${errorCode ? ` (${errorCode})` : ''}`, { cause });
  }
}

/** Errors raised before a byte of the request left the process. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The first `code` found on an error, its `cause` or (Happy Eyeballs) its aggregated errors. */
function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code !== 'UND_ERR') return code;
  if (Array.isArray(errors) && errors.length > 0) return errorCodeOf(errors[0]);
  return errorCodeOf(cause);
}

export function classifyTransportError(error: unknown): TransportError {
  const code = errorCodeOf(error);
  if (code && NOT_SENT_CODES.has(code)) return new TransportError('unreachable', false, code, error);
  if (code && TIMEOUT_CODES.has(code)) return new TransportError('timeout', true, code, error);
  return new TransportError('network', true, code, error);
}

/**
 * One HTTP exchange: sends, reads the whole body as text (which also frees the socket for
 * keep-alive) and turns undici's errors into a TransportError, or the abort reason when the
 * caller's signal fired.
 */
export async function send(dispatcher: Dispatcher, request: HttpRequest): Promise<HttpResponse> {
  const started = performance.now();
  try {
    const response = await dispatcher.request({
      origin: request.url.origin,
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (request.signal?.aborted) throw abortReason(request.signal);
    throw classifyTransportError(error);
  }
}
