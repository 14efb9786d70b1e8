import type { IncomingMessage, ServerResponse } from 'node:http';
import { createFaultInjector, isConfigurableFaults, parseFaultConfig } from './faults.js';
import { lowerBound } from './handlers/finance-common.js';
import { sendJson } from './http.js';
import type { SandboxRuntime } from './runtime.js';
import { handleEmbedded } from './sso-exchange.js';
import { publicView } from './state.js';

/**
 * Admin endpoints under /_sandbox/ (never under /v2): stats, reset, clock, faults, per-account dumps
 * and the embedded application's side of SSO. Unauthenticated by design: the sandbox binds to
 * loopback by default and holds no real data.
 */
export async function handleAdmin(
  runtime: SandboxRuntime,
  req: IncomingMessage,
  path: string,
  body: Buffer,
  res: ServerResponse,
): Promise<void> {
  const route = `${req.method} ${path.replace(/\/$/, '')}`;
  const fail = (status: number, error: string, message: string) =>
    sendJson(res, status, { timestamp: runtime.clock.now(), error, message });

  if (await handleEmbedded(runtime.sso, runtime.state, runtime.clock.now(), route, body, res)) return;
  const dump = /^GET \/_sandbox\/accounts\/(\d+)\/(transactions|invoices)$/.exec(route);
  if (dump) return dumpAccount(runtime, Number(dump[1]), dump[2] as 'transactions' | 'invoices', res, fail);
  const drop = /^DELETE \/_sandbox\/accounts\/(\d+)\/transactions\/(\d+)$/.exec(route);
  if (drop) return deleteTransaction(runtime, Number(drop[1]), Number(drop[2]), res, fail);

  switch (route) {
    case 'GET /_sandbox/stats': {
      const faultsInjected = isConfigurableFaults(runtime.faults) ? runtime.faults.injected() : {};
      return sendJson(res, 200, { ...runtime.stats.snapshot(), faultsInjected });
    }
    case 'POST /_sandbox/reset':
      runtime.reset();
      return sendJson(res, 200, {
        success: true,
        message: 'State, tokens, stats, init tokens and faults restored to how the sandbox started',
      });
    case 'GET /_sandbox/clock':
      return sendJson(res, 200, { now: new Date(runtime.clock.now()).toISOString() });
    case 'POST /_sandbox/clock': {
      const parsed = safeJson(body) as { advanceMs?: unknown } | undefined;
      const advanceMs = parsed?.advanceMs;
      if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs) || advanceMs < 0) {
        return fail(400, 'INVALID_REQUEST', 'expected {"advanceMs": <non-negative number>}');
      }
      runtime.clock.advance(advanceMs);
      return sendJson(res, 200, { now: new Date(runtime.clock.now()).toISOString() });
    }
    case 'GET /_sandbox/faults':
      if (!isConfigurableFaults(runtime.faults)) {
        return sendJson(res, 200, { custom: true, message: 'A custom FaultInjector is installed' });
      }
      return sendJson(res, 200, runtime.faults.config());
    case 'PUT /_sandbox/faults': {
      const input = safeJson(body);
      if (input === INVALID_JSON) return fail(400, 'INVALID_REQUEST', 'The body is not valid JSON');
      let config: ReturnType<typeof parseFaultConfig>;
      try {
        config = parseFaultConfig(input, 'in PUT /_sandbox/faults');
      } catch (error) {
        return fail(400, 'INVALID_REQUEST', (error as Error).message);
      }
      // Replaces the running config; reset() still returns to the start-up config.
      if (isConfigurableFaults(runtime.faults)) runtime.faults.configure(config);
      else runtime.faults = createFaultInjector(config);
      return sendJson(res, 200, config);
    }
    default:
      return fail(404, 'NOT_FOUND', `No sandbox admin endpoint ${route}`);
  }
}

/** Every transaction (all bank accounts) or invoice of an account, so tests can check for duplicates over HTTP. */
function dumpAccount(
  runtime: SandboxRuntime,
  accountId: number,
  kind: 'transactions' | 'invoices',
  res: ServerResponse,
  fail: (status: number, error: string, message: string) => void,
): void {
  const account = runtime.state.accounts.get(accountId);
  if (!account) return fail(404, 'ACCOUNT_NOT_FOUND', `No account ${accountId}`);
  const records =
    kind === 'transactions' ? [...account.transactions.values()].flat() : [...account.invoices.values()];
  const data = records.sort((a, b) => a.id - b.id).map((record) => publicView(record));
  sendJson(res, 200, { success: true, accountId, count: data.length, data });
}

/**
 * Deletes one transaction, as a user of the service's own app may (the partner API has no delete of
 * transactions): what `erp-bridge reconcile` is there to notice.
 */
function deleteTransaction(
  runtime: SandboxRuntime,
  accountId: number,
  transactionId: number,
  res: ServerResponse,
  fail: (status: number, error: string, message: string) => void,
): void {
  const account = runtime.state.accounts.get(accountId);
  if (!account) return fail(404, 'ACCOUNT_NOT_FOUND', `No account ${accountId}`);
  for (const [bankAccountId, list] of account.transactions) {
    const at = lowerBound(list, transactionId, (t) => t.id);
    if (list[at]?.id !== transactionId) continue;
    const [gone] = list.splice(at, 1);
    if (gone) account.transactionsByExternalId.get(bankAccountId)?.delete(gone.externalId);
    return sendJson(res, 200, { success: true, message: `Transaction ${transactionId} deleted` });
  }
  return fail(404, 'TRANSACTION_NOT_FOUND', `No transaction ${transactionId} in account ${accountId}`);
}

const INVALID_JSON = Symbol('invalid JSON');

function safeJson(body: Buffer): unknown {
  try {
    return body.length ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    return INVALID_JSON;
  }
}
