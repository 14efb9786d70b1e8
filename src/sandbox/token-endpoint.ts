import type { IncomingMessage, ServerResponse } from 'node:http';
import { echoedRequest, sendJson } from './http.js';
import type { SandboxRuntime } from './runtime.js';

/** POST {auth_url}/oauth2/token: client credentials, form-encoded; errors per RFC 6749 section 5.2. */
export function handleTokenRequest(
  runtime: SandboxRuntime,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
): void {
  const oauthError = (status: number, error: string, description: string) =>
    sendJson(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });

  const fault = runtime.faults.beforeToken?.({ echoed: () => echoedRequest(req, body) });
  if (fault?.kind === 'fail') {
    const code = fault.fault.status >= 500 ? 'server_error' : 'invalid_request';
    return oauthError(fault.fault.status, code, fault.fault.message);
  }
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    return oauthError(400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(body.toString('utf8'));
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported');
  }
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  if (!clientId || !clientSecret)
    return oauthError(400, 'invalid_request', 'client_id and client_secret are required');
  const client = runtime.state.clients.get(clientId);
  if (!client || client.clientSecret !== clientSecret) {
    return oauthError(401, 'invalid_client', 'Client authentication failed');
  }
  sendJson(res, 200, runtime.tokens.issue(client, runtime.clock.now()), { 'cache-control': 'no-store' });
}
