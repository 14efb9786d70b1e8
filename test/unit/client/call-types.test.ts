import { describe, expectTypeOf, it } from 'vitest';
import type { CallArgs, PartnerClient } from '../../../src/client/index.js';
import type { Invoice, Scenario } from '../../../src/contract/index.js';

/**
 * Compile-time checks of the typed `call` (tsc runs over test/, so a wrong type fails `npm test`);
 * the bodies are never executed.
 */
describe('call() types', () => {
  it('derives options and results from the operation table', () => {
    expectTypeOf<Awaited<ReturnType<PartnerClient['listScenarios']>>>().toEqualTypeOf<Scenario[]>();
    expectTypeOf<CallArgs<'listAccounts'>>().toEqualTypeOf<[options?: CallArgs<'listAccounts'>[0]]>();

    const typed = async (client: PartnerClient) => {
      const invoices = await client.call('listInvoices', {
        accountId: 1,
        query: { invoiceTypeFilter: 'SALE' },
      });
      expectTypeOf(invoices.data).toEqualTypeOf<Invoice[]>();
      await client.call('listAccounts');
      await client.call('getInvoice', {
        accountId: 1,
        params: { id: 3 },
        query: { invoiceTypeFilter: 'SALE' },
      });

      // @ts-expect-error the tenant is required where X-Account-Id is sent
      await client.call('listScenarios', {});
      const user = { externalId: 'u', email: 'a@b.de', firstName: 'A', lastName: 'B' };
      await client.call('createAccount', { body: { externalId: 'x', companyName: 'y', user } });
      const withTenant = { accountId: 1, body: { externalId: 'x', companyName: 'y', user } };
      // @ts-expect-error createAccount sends no X-Account-Id, so it takes no tenant
      await client.call('createAccount', withTenant);
      // @ts-expect-error invoiceTypeFilter is a required query parameter
      await client.call('listInvoices', { accountId: 1, query: {} });
      const wrongParam = {
        accountId: 1,
        params: { invoiceId: 3 },
        query: { invoiceTypeFilter: 'SALE' as const },
      };
      // @ts-expect-error the path parameter of getInvoice is `id`
      await client.call('getInvoice', wrongParam);
      // @ts-expect-error bulk create needs a body
      await client.call('createTransactionsBulk', { accountId: 1 });
    };
    expectTypeOf(typed).toBeFunction();
  });
});
