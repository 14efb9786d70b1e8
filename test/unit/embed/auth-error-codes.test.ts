import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_AUTH_ERROR_CODES } from '../../../src/contract/index.js';

/**
 * The browser helper imports nothing (it runs in partners' pages), so it carries its own copy of
 * the spec's `service:auth-error` codes; read as text, since it is compiled for the DOM, not node.
 */
describe('browser helper error codes', () => {
  it('are the contract codes, in the same order', () => {
    const source = readFileSync(new URL('../../../src/embed/browser/embed.ts', import.meta.url), 'utf8');
    const list = /export const AUTH_ERROR_CODES = \[([^\]]*)\] as const;/.exec(source)?.[1];
    expect(list, 'AUTH_ERROR_CODES literal not found in embed.ts').toBeDefined();
    const codes = [...(list ?? '').matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]);
    expect(codes).toEqual([...EMBEDDED_AUTH_ERROR_CODES]);
  });
});
