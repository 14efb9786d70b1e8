import { SandboxFault } from '../fault.js';
import type { AccountRecord } from '../state.js';

/**
 * The company a request names (bank accounts may leave it out: the account's first company), else
 * 404 COMPANY_NOT_FOUND (spec error table: create user, create bank account), naming the field.
 */
export function companyIdOr404(account: AccountRecord, companyId: number | undefined): number {
  const id = companyId ?? account.companies.keys().next().value;
  if (id !== undefined && account.companies.has(id)) return id;
  throw new SandboxFault(
    404,
    'COMPANY_NOT_FOUND',
    `Company ${companyId ?? '(default)'} is not a company of account ${account.id}; take companyId from GET /companies`,
    [{ field: 'companyId', message: 'no such company in the account' }],
  );
}
