import { describe, expect, it } from 'vitest';
import { MemoryGate } from '../../../src/gate/memory-gate.js';
import type { Clock } from '../../../src/time/clock.js';
import { gateContract } from '../../support/gate-contract.js';

function fakeClock(start = 1_000) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps };
}

describe('MemoryGate', () => {
  gateContract(() => new MemoryGate());

  it('sleeps exactly until the longest pause ends, on its clock', async () => {
    const { clock, sleeps } = fakeClock();
    const gate = new MemoryGate(clock);
    await gate.pause('partner', 4_000);
    await gate.pause('partner', 2_000);
    await gate.waitUntilOpen('partner');
    expect(sleeps).toEqual([3_000]);
    await gate.waitUntilOpen('other');
    expect(sleeps).toEqual([3_000]);
  });
});
