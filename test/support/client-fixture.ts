import type { PartnerClientSettings } from '../../src/client/client-core.js';
import type { ClientHooks } from '../../src/client/hooks.js';
import { ApiError, PartnerClient } from '../../src/client/index.js';
import type { RetryPolicy } from '../../src/client/retry-policy.js';
import { FakeClock } from './fake-clock.js';
import { TestServer } from './http-server.js';
import { type CapturedLogs, captureLogs } from './log-capture.js';

export const API_PATH = '/partner/v2';
export const TOKEN_PATH = '/auth/oauth2/token';
export const CLIENT_SECRET = 's3cr3t-client-secret-value';

/** A token response; `n` makes each token distinct so tests can tell renewals apart. */
export function tokenReply(n: number, expiresIn = 3600) {
  return {
    status: 200,
    json: { access_token: `access-token-${n}-xyz`, token_type: 'Bearer', expires_in: expiresIn },
  };
}

export interface Fixture {
  server: TestServer;
  client: PartnerClient;
  clock: FakeClock;
  logs: CapturedLogs;
  /** Requests that reached the API (not the token endpoint). */
  apiRequests(): TestServer['requests'];
  close(): Promise<void>;
}

/**
 * A real server on loopback serving both the API (under /partner/v2) and the token endpoint
 * (under /auth), a PartnerClient pointed at it with fake time and captured debug logs. Unless
 * `tokens: false`, the token endpoint hands out access-token-1, -2, ... on each request.
 */
export async function startFixture(
  options: {
    settings?: Partial<PartnerClientSettings>;
    hooks?: ClientHooks;
    tokens?: boolean;
    retryPolicy?: RetryPolicy;
  } = {},
): Promise<Fixture> {
  const server = await TestServer.start();
  if (options.tokens !== false) {
    let issued = 0;
    server.always('POST', TOKEN_PATH, () => tokenReply(++issued));
  }
  const clock = new FakeClock();
  const logs = captureLogs();
  const client = new PartnerClient(
    {
      baseUrl: `${server.url}${API_PATH}`,
      authUrl: `${server.url}/auth`,
      clientId: 'client-id-1',
      clientSecret: CLIENT_SECRET,
      ...options.settings,
    },
    {
      clock,
      logger: logs.logger,
      hooks: options.hooks ?? {},
      ...(options.retryPolicy ? { retryPolicy: options.retryPolicy } : {}),
    },
  );
  return {
    server,
    client,
    clock,
    logs,
    apiRequests: () => server.requests.filter((r) => r.path.startsWith(API_PATH)),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A page of the pagination envelope. */
export function page<T>(data: T[], number: number, totalPages: number, totalElements = data.length) {
  return { success: true, message: 'ok', number, size: 50, totalElements, totalPages, data };
}

/** An ExceptionDetails body. */
export function problem(error: string, message = 'something is wrong', causes?: unknown[]) {
  return { timestamp: 1_900_000_000_000, error, message, ...(causes ? { causes } : {}) };
}

/** The ApiError a call rejects with; fails the test when it resolves or throws something else. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
