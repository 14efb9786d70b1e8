import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';

/** Starts a sandbox on a free loopback port; returns it with helpers to get tokens and call it raw. */
export async function withSandbox(options: SandboxOptions = {}) {
  const sandbox: SandboxHandle = await startSandbox(options);

  async function token(clientId = sandbox.clientId, clientSecret = sandbox.clientSecret): Promise<string> {
    const res = await fetch(`${sandbox.authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /** A raw call to {base_url}: method, path, optional account and JSON body; returns status and parsed body. */
  async function call(
    method: string,
    path: string,
    opts: {
      account?: number | string;
      body?: unknown;
      token?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const headers: Record<string, string> = { ...opts.headers };
    headers.authorization = `Bearer ${opts.token ?? (await token())}`;
    if (opts.account !== undefined) headers['x-account-id'] = String(opts.account);
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers,
      body:
        opts.body === undefined
          ? undefined
          : typeof opts.body === 'string'
            ? opts.body
            : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  return { sandbox, token, call, close: () => sandbox.close() };
}

export type SandboxFixture = Awaited<ReturnType<typeof withSandbox>>;

/** The `data` of a single-item or list envelope. */
export const dataOf = <T>(res: { body: unknown }) => (res.body as { data: T }).data;

/**
 * One sandbox for the whole test file, reset to its seed before each test (reset also forgets
 * tokens) and a fresh token: a fresh world per test at the cost of one server start per file.
 */
export function sandboxPerFile(options: SandboxOptions = {}): { sb: SandboxFixture; token: string } {
  const world = {} as { sb: SandboxFixture; token: string };
  beforeAll(async () => {
    world.sb = await withSandbox(options);
  });
  afterAll(() => world.sb.close());
  beforeEach(async () => {
    world.sb.sandbox.runtime.reset();
    world.token = await world.sb.token();
  });
  return world;
}

/** A sandbox per test, closed after it: for tests that need their own seed or options. */
export function sandboxPerTest(): (options?: SandboxOptions) => Promise<SandboxFixture> {
  let current: SandboxFixture | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options) => {
    current = await withSandbox(options);
    return current;
  };
}
