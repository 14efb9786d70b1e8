import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPERATIONS, type OperationName, type OperationSpec } from '../contract/index.js';
import { accountIdHeader, authenticate, authorize, resolveTenant } from './access.js';
import type { OperationHandler, RequestContext } from './context.js';
import { invalidRequest, SandboxFault } from './fault.js';
import type { FaultRequest } from './faults.js';
import { HANDLERS } from './handlers/index.js';
import { echoedRequest, isJson, queryObject, sendJson } from './http.js';
import type { SandboxRuntime } from './runtime.js';
import type { AccountRecord, SandboxState } from './state.js';
import { parseOr400 } from './validation.js';

function parseJsonBody(req: IncomingMessage, body: Buffer): unknown {
  if (body.length === 0) throw invalidRequest('A JSON request body is required');
  if (!isJson(req)) throw invalidRequest('Content-Type must be application/json');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidRequest('The request body is not valid JSON');
  }
}

/**
 * SSO init hides whether an account exists or belongs to someone else: the spec answers 404
 * USER_NOT_FOUND "instead of 403 so existence cannot be probed". A missing header stays 400.
 */
function tenantOf(
  name: OperationName,
  header: ReturnType<typeof accountIdHeader>,
  caller: Parameters<typeof resolveTenant>[1],
  state: SandboxState,
): AccountRecord {
  try {
    return resolveTenant(header, caller, state);
  } catch (error) {
    if (
      name === 'ssoInit' &&
      error instanceof SandboxFault &&
      (error.status === 403 || error.status === 404)
    ) {
      throw new SandboxFault(404, 'USER_NOT_FOUND', 'User does not exist or is not accessible');
    }
    throw error;
  }
}

/**
 * One partner API call: authenticate (401), authorize the scope (403), resolve the tenant
 * (400/404/403), inject faults, validate query and body strictly (400), run the handler.
 */
export async function handleOperation(
  runtime: SandboxRuntime,
  name: OperationName,
  params: Record<string, string>,
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  res: ServerResponse,
): Promise<void> {
  const spec: OperationSpec = OPERATIONS[name];
  const headerAccount = spec.accountHeader ? accountIdHeader(req.headers['x-account-id']) : undefined;
  const statsAccount = typeof headerAccount === 'number' ? headerAccount : undefined;
  runtime.stats.begin(statsAccount);
  const arrivedAt = runtime.onRequest ? Date.now() : 0;
  let status = 500;
  try {
    const { state } = runtime;
    const now = runtime.clock.now();
    const caller = authenticate(req.headers.authorization, runtime.tokens, state, now);
    authorize(caller, spec);
    const account = spec.accountHeader ? tenantOf(name, headerAccount, caller, state) : undefined;

    const faultRequest: FaultRequest = {
      op: name,
      method: spec.method,
      partnerId: caller.partner.id,
      accountId: account?.id,
      echoed: () => echoedRequest(req, body),
    };
    const before = await runtime.faults.before(faultRequest);
    if (before.kind === 'reset') {
      status = 0;
      req.socket.destroy();
      return;
    }
    if (before.kind === 'fail') throw before.fault;

    const handler = HANDLERS[name] as OperationHandler<OperationName>;
    const rawBody = spec.body ? parseJsonBody(req, body) : undefined;
    const query = queryObject(url.searchParams);
    if (!spec.query && Object.keys(query).length > 0) {
      throw invalidRequest(`Unknown query parameter(s): ${Object.keys(query).join(', ')}`);
    }
    const ctx = {
      op: name,
      params,
      query: spec.query ? parseOr400(spec.query, query, 'query') : undefined,
      body:
        spec.body && !handler.rawBody
          ? parseOr400(spec.body, rawBody, 'request body', Array.isArray(rawBody) ? '' : undefined)
          : undefined,
      rawBody,
      client: caller.client,
      partner: caller.partner,
      account: account as AccountRecord,
      state,
      now,
    } as RequestContext<OperationName>;
    const result = await handler.handle(ctx);
    status = result.status ?? 200;

    if (spec.method !== 'GET') {
      const after = runtime.faults.afterCommit(faultRequest);
      if (after.kind === 'reset') {
        status = 0;
        req.socket.destroy();
        return;
      }
      if (after.kind === 'fail') throw after.fault;
    }
    sendJson(res, status, result.body);
  } catch (error) {
    const fault =
      error instanceof SandboxFault
        ? error
        : new SandboxFault(
            500,
            'INTERNAL_ERROR',
            `Unexpected sandbox failure: ${error instanceof Error ? error.message : String(error)}`,
          );
    status = fault.status;
    sendJson(res, fault.status, fault.toBody(runtime.clock.now()), fault.headers);
  } finally {
    runtime.stats.end(statsAccount, name, status);
    runtime.onRequest?.({
      at: arrivedAt,
      doneAt: Date.now(),
      operation: name,
      ...(statsAccount !== undefined ? { accountId: statsAccount } : {}),
      status,
    });
  }
}
