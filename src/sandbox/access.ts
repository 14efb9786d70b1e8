import type { OperationSpec } from '../contract/index.js';
import { SandboxFault } from './fault.js';
import type { AccountRecord, ClientRecord, PartnerRecord, SandboxState } from './state.js';
import type { TokenStore } from './tokens.js';

export interface Caller {
  client: ClientRecord;
  partner: PartnerRecord;
}

/** 401 INVALID_CREDENTIALS unless the request carries a live bearer token. */
export function authenticate(
  authorization: string | undefined,
  tokens: TokenStore,
  state: SandboxState,
  now: number,
): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const clientId = match?.[1] ? tokens.clientIdOf(match[1], now) : undefined;
  const client = clientId ? state.clients.get(clientId) : undefined;
  const partner = client ? state.partners.get(client.partnerId) : undefined;
  if (!client || !partner) {
    throw new SandboxFault(
      401,
      'INVALID_CREDENTIALS',
      authorization
        ? 'The access token is invalid or expired; request a new one'
        : 'An access token is required (Authorization: Bearer <token>)',
    );
  }
  return { client, partner };
}

/** 403 INSUFFICIENT_SCOPE when the token's client lacks the operation's scope. */
export function authorize(caller: Caller, spec: OperationSpec): void {
  if (spec.scope && !caller.client.scopes.includes(spec.scope)) {
    throw new SandboxFault(403, 'INSUFFICIENT_SCOPE', `This operation requires the ${spec.scope} scope`);
  }
}

/** Parses X-Account-Id as a positive safe integer, or undefined when absent. */
export function accountIdHeader(value: string | string[] | undefined): number | undefined | 'invalid' {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d+$/.test(text.trim())) return 'invalid';
  const id = Number(text.trim());
  return Number.isSafeInteger(id) ? id : 'invalid';
}

/** The tenant of the request: 400 when the header is missing or malformed, 404 unknown, 403 not this partner's. */
export function resolveTenant(
  header: number | undefined | 'invalid',
  caller: Caller,
  state: SandboxState,
): AccountRecord {
  if (header === undefined)
    throw new SandboxFault(400, 'MISSING_ACCOUNT_HEADER', 'Header X-Account-Id is required');
  if (header === 'invalid') {
    throw new SandboxFault(400, 'INVALID_REQUEST', 'Header X-Account-Id must be an integer account id', [
      { field: 'X-Account-Id', message: 'expected an integer' },
    ]);
  }
  const account = state.accounts.get(header);
  if (!account) throw new SandboxFault(404, 'ACCOUNT_NOT_FOUND', 'Specified account does not exist');
  if (account.partnerId !== caller.partner.id) {
    throw new SandboxFault(403, 'ACCOUNT_ACCESS_DENIED', 'Credentials may not access the account');
  }
  return account;
}
