import type { z } from 'zod';
import { CreateUserRequest } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { accountRef } from '../account-route.js';

/**
 * What one source record becomes: the contract's create body, companyId optional because an ERP
 * rarely knows the service's company ids; the strategy fills it in before sending. accountExternalId
 * names the account (account-route.ts), never sent.
 */
export const UserPayload = CreateUserRequest.partial({ companyId: true }).extend({
  accountExternalId: accountRef,
});
export type UserPayload = z.output<typeof UserPayload>;

export type UserRecord = MappedRecord<UserPayload>;
