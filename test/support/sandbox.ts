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
