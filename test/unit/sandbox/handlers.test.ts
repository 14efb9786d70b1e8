import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../../src/contract/index.js';
import { IMPLEMENTED_OPERATIONS } from '../../../src/sandbox/handlers/index.js';

describe('sandbox handler table', () => {
  it('has a handler for every operation of the contract (none falls back to "not implemented")', () => {
    expect([...IMPLEMENTED_OPERATIONS].sort()).toEqual(Object.keys(OPERATIONS).sort());
  });
});
