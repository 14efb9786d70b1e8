import { describe, expect, it } from 'vitest';
import { allSettled } from '../../../src/cli/all-settled.js';

/**
 * `sync` closes its feeds' shared client once allSettled returns or throws. Every refusal path is a
 * stopped run now (no feed's run rejects on a location's or the service's refusal), so the guard
 * is shown here: a run that throws at once must not end the wait while another run still works.
 */
describe("allSettled (sync's wait for every feed before the shared client closes)", () => {
  it('throws the first rejection only after every other run has ended', async () => {
    const ended: string[] = [];
    const slow = new Promise<string>((resolve) =>
      setTimeout(() => {
        ended.push('slow');
        resolve('slow');
      }, 200),
    );
    const bug = new Error('a bug in one feed');
    const failing = Promise.reject(bug);
    await expect(allSettled([failing, slow])).rejects.toBe(bug);
    // With Promise.all the rejection would come first and the slow run would still be running.
    expect(ended).toEqual(['slow']);
  });

  it('gives every value in order when none rejects', async () => {
    await expect(
      allSettled([Promise.resolve(1), 2, new Promise((r) => setTimeout(() => r(3), 10))]),
    ).resolves.toEqual([1, 2, 3]);
  });
});
