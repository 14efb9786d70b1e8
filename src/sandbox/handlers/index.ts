import { OPERATIONS, type OperationName } from '../../contract/index.js';
import type { HandlerTable, OperationHandler, PartialHandlerTable } from '../context.js';
import { SandboxFault } from '../fault.js';
import { accountsHandlers } from './accounts.js';
import { authHandlers } from './auth.js';
import { bankAccountHandlers } from './bank-accounts.js';
import { invoicesHandlers } from './invoices.js';
import { planningHandlers } from './planning.js';
import { transactionsHandlers } from './transactions.js';
import { usersHandlers } from './users.js';

const groups: PartialHandlerTable[] = [
  authHandlers,
  accountsHandlers,
  usersHandlers,
  planningHandlers,
  bankAccountHandlers,
  transactionsHandlers,
  invoicesHandlers,
];

const notImplemented: OperationHandler<OperationName> = {
  handle: () => {
    throw new SandboxFault(501, 'NOT_IMPLEMENTED', 'This operation is not implemented by the sandbox yet');
  },
};

function lookup(name: OperationName): OperationHandler<OperationName> | undefined {
  for (const group of groups) {
    const handler = group[name] as OperationHandler<OperationName> | undefined;
    if (handler) return handler;
  }
  return undefined;
}

const NAMES = Object.keys(OPERATIONS) as OperationName[];

/** Every operation of the contract mapped to its handler (a test asserts none is missing). */
export const HANDLERS = Object.fromEntries(
  NAMES.map((name) => [name, lookup(name) ?? notImplemented]),
) as unknown as HandlerTable;

export const IMPLEMENTED_OPERATIONS: readonly OperationName[] = NAMES.filter(
  (name) => lookup(name) !== undefined,
);
