import { describe, expect, it } from 'vitest';
import { PARTNER_SCOPE } from '../../../src/config/partner-scope.js';
import { routeToAccount } from '../../../src/kinds/account-route.js';
import type { KindFeedOptions } from '../../../src/kinds/definition.js';

const feed = (accountId: number): KindFeedOptions => ({
  accountId,
  mode: 'upsert',
  emptyCellClears: false,
  replaceCurrentValuesForThePeriod: true,
});

describe('routeToAccount (records that name their customer account)', () => {
  it("routes a record naming an account there, whatever the feed's account", () => {
    expect(routeToAccount(feed(1001), undefined, { accountExternalId: 'nordwind' })).toEqual({
      route: { account: 'nordwind' },
    });
    expect(routeToAccount(feed(PARTNER_SCOPE), undefined, { accountExternalId: 'nordwind' })).toEqual({
      route: { account: 'nordwind' },
    });
  });

  it("sends a record naming none to the feed's account, and rejects it when the feed has none", () => {
    expect(routeToAccount(feed(1001), undefined, {})).toEqual({});
    expect(routeToAccount(feed(PARTNER_SCOPE), undefined, {})).toEqual({
      rejected:
        "the record names no customer account (accountExternalId is empty) and the feed has no accountId: fill in the account's externalId, or give the feed an accountId for such records",
    });
  });
});
