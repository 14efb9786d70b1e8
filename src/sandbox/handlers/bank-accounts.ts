import { type BankAccountCreate, LIMITS } from '../../contract/index.js';
import { handlers, ok } from '../context.js';
import { conflict, invalidRequest, SandboxFault } from '../fault.js';
import { type BankAccountRecord, publicView } from '../state.js';
import { balancePage } from './balances.js';
import {
  assertRoomForOneMore,
  bankAccountOr404,
  countsTowardsLimit,
  ledgerOf,
  requirePartnerManaged,
} from './bank-account-rules.js';
import { companyIdOr404 } from './company-ref.js';
import { pathId } from './path-ids.js';

const DAY_MS = 86_400_000;

/** companyId must be a company of the tenant; absent means the account's first (default) company. */
/**
 * balanceReference is the start-of-day balance on balanceDate: one without the other has no meaning,
 * so the sandbox refuses the half pair instead of guessing a date.
 */
function checkBalancePair(bank: Pick<BankAccountRecord, 'balanceReference' | 'balanceDate'>): void {
  if ((bank.balanceReference === null) !== (bank.balanceDate === null)) {
    const missing = bank.balanceDate === null ? 'balanceDate' : 'balanceReference';
    throw invalidRequest(`balanceReference and balanceDate go together; send ${missing} as well`, [
      { field: missing, code: 'required', message: 'required together with its counterpart' },
    ]);
  }
}

/** A bank account as the sandbox stores it (created through the API or placed by a seed). */
export function bankAccountRecord(
  id: number,
  companyId: number,
  input: Pick<BankAccountCreate, 'accountName' | 'bankName' | 'accountCurrency' | 'accountType'> &
    Partial<
      Pick<
        BankAccountCreate,
        'iban' | 'accountNumber' | 'balanceReference' | 'balanceDate' | 'externalId' | 'visible'
      >
    >,
  provider: BankAccountRecord['provider'],
): BankAccountRecord {
  return {
    id,
    companyId,
    iban: input.iban ?? null,
    accountNumber: input.accountNumber ?? null,
    accountCurrency: input.accountCurrency,
    accountName: input.accountName,
    bankName: input.bankName,
    balanceReference: input.balanceReference ?? null,
    balanceDate: input.balanceDate ?? null,
    accountType: input.accountType,
    externalId: input.externalId ?? null,
    visible: input.visible ?? true,
    provider,
    _lastConvertedAt: null,
  };
}

function view(bank: BankAccountRecord) {
  return publicView(bank);
}

export const bankAccountHandlers = handlers({
  listBankAccounts: {
    // Every account of the tenant, hidden (visible false) ones included, in id order.
    handle: (ctx) =>
      ok({ success: true, message: 'OK', data: [...ctx.account.bankAccounts.values()].map(view) }),
  },

  createBankAccount: {
    handle(ctx) {
      const { account, body } = ctx;
      const companyId = companyIdOr404(account, body.companyId);
      // The partner surface creates accounts it manages itself.
      const record = bankAccountRecord(0, companyId, body, 'PARTNER');
      checkBalancePair(record);
      // A disabled account does not count, so it may be created even at the limit.
      if (countsTowardsLimit(record)) assertRoomForOneMore(account, 'create a visible bank account');
      record.id = ctx.state.nextId();
      account.bankAccounts.set(record.id, record);
      ledgerOf(account, record.id);
      return ok({ success: true, message: `Bank account ${record.id} created`, data: view(record) });
    },
  },

  getBankAccount: {
    handle(ctx) {
      const bank = bankAccountOr404(ctx.account, pathId(ctx.params, 'id'));
      return ok({ success: true, message: 'OK', data: view(bank) });
    },
  },

  updateBankAccount: {
    handle(ctx) {
      const { account, body } = ctx;
      const bank = bankAccountOr404(account, pathId(ctx.params, 'id'));
      requirePartnerManaged(bank, 'update');
      // The spec's "visible is the only field the customer may change" is about the customer's UI;
      // the partner manages its PARTNER accounts, so every field of the update body applies.
      const next: BankAccountRecord = { ...bank };
      if (body.companyId !== undefined) next.companyId = companyIdOr404(account, body.companyId);
      if (body.iban !== undefined) next.iban = body.iban;
      if (body.accountNumber !== undefined) next.accountNumber = body.accountNumber;
      if (body.accountCurrency !== undefined) next.accountCurrency = body.accountCurrency;
      if (body.accountName !== undefined) next.accountName = body.accountName;
      if (body.bankName !== undefined) next.bankName = body.bankName;
      if (body.balanceReference !== undefined) next.balanceReference = body.balanceReference;
      if (body.balanceDate !== undefined) next.balanceDate = body.balanceDate;
      if (body.accountType !== undefined) next.accountType = body.accountType;
      if (body.externalId !== undefined) next.externalId = body.externalId;
      if (body.visible !== undefined) next.visible = body.visible;
      checkBalancePair(next);
      if (!bank.visible && next.visible) assertRoomForOneMore(account, 'make the bank account visible');
      // Committed only after every check passed: a refused update changes nothing.
      Object.assign(bank, next);
      return ok({ success: true, message: `Bank account ${bank.id} updated`, data: view(bank) });
    },
  },

  deleteBankAccount: {
    handle(ctx) {
      const { account } = ctx;
      const bank = bankAccountOr404(account, pathId(ctx.params, 'id'));
      requirePartnerManaged(bank, 'delete');
      account.bankAccounts.delete(bank.id);
      // Its transactions go with it.
      account.transactions.delete(bank.id);
      account.transactionsByExternalId.delete(bank.id);
      return ok({
        success: true,
        message: `Bank account ${bank.id} and its transactions deleted`,
        id: bank.id,
      });
    },
  },

  listBankAccountBalances: {
    handle(ctx) {
      const bank = bankAccountOr404(ctx.account, pathId(ctx.params, 'id'));
      return ok(balancePage(bank, ledgerOf(ctx.account, bank.id).records, ctx.query));
    },
  },

  convertBankAccount: {
    handle(ctx) {
      const { account, now } = ctx;
      const { targetProvider } = ctx.body;
      const bank = bankAccountOr404(account, pathId(ctx.params, 'id'));
      if (bank.provider !== 'API' && bank.provider !== 'OFFLINE') {
        throw conflict(
          'PROVIDER_CONVERSION_NOT_ALLOWED',
          `Bank account ${bank.id} has provider ${bank.provider}; only API and OFFLINE accounts can be converted`,
        );
      }
      if (bank.provider === targetProvider) {
        throw conflict(
          'PROVIDER_CONVERSION_NOT_ALLOWED',
          `Bank account ${bank.id} already has provider ${targetProvider}; convert API to OFFLINE or OFFLINE to API`,
        );
      }
      const waitMs = LIMITS.providerConversionDays * DAY_MS;
      if (bank._lastConvertedAt !== null && now - bank._lastConvertedAt < waitMs) {
        const nextAllowed = new Date(bank._lastConvertedAt + waitMs).toISOString();
        throw new SandboxFault(
          400,
          'PROVIDER_CONVERSION_TOO_SOON',
          `Bank account ${bank.id} was converted less than ${LIMITS.providerConversionDays} days ago; ` +
            `it can be converted again from ${nextAllowed}`,
        );
      }
      if (targetProvider === 'API' && bank.visible) assertRoomForOneMore(account, 'convert to provider API');
      bank.provider = targetProvider;
      bank._lastConvertedAt = now;
      return ok({
        success: true,
        message: `Bank account ${bank.id} converted to provider ${targetProvider}`,
        data: view(bank),
      });
    },
  },
});
