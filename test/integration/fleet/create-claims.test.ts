import { afterAll, describe, expect, it } from 'vitest';
import { RedisCreateClaims } from '../../../src/fleet/create-claims.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { claimKey } from '../../../src/sync/create-claims.js';
import { testRedis } from '../../support/redis.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

describe('RedisCreateClaims (issue 18 case 2: creates of one externalId serialised fleet-wide)', () => {
  it('one holder at a time per (account, kind, externalId); release frees only its own; claims expire', async () => {
    const claims = new RedisCreateClaims(redis.connect(), fleetKeys(redis.newPrefix()));
    const x = claimKey(1001, 'invoices', 'INV-1');
    const y = claimKey(1001, 'invoices', 'INV-2');
    const other = claimKey(1002, 'invoices', 'INV-1');
    expect(await claims.tryClaim([x, y], 'run-a', 60_000)).toEqual(new Set([x, y]));
    expect(await claims.tryClaim([x, y, other], 'run-b', 60_000)).toEqual(new Set([other]));
    // run-b cannot release run-a's claim.
    await claims.release([x], 'run-b');
    expect(await claims.tryClaim([x], 'run-c', 60_000)).toEqual(new Set());
    await claims.release([x], 'run-a');
    expect(await claims.tryClaim([x], 'run-c', 60_000)).toEqual(new Set([x]));
    // An expired claim (a crashed holder) frees the target.
    expect(await claims.tryClaim([claimKey(1, 'invoices', 'Z')], 'dead', 20)).toHaveProperty('size', 1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await claims.tryClaim([claimKey(1, 'invoices', 'Z')], 'alive', 60_000)).toHaveProperty('size', 1);
  });
});
