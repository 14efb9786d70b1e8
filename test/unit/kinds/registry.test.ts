import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KIND_FEED_KEYS, KINDS, RECORD_KINDS } from '../../../src/kinds/registry.js';

describe('the kind registry', () => {
  it.each([...RECORD_KINDS])('%s: identity and amount fields are fields of the kind', (kind) => {
    const { fields, identityFields, amountField } = KINDS[kind];
    for (const field of identityFields) expect(fields, field).toHaveProperty([field]);
    expect([...identityFields]).toEqual([...identityFields].sort());
    if (amountField !== undefined) expect(fields[amountField]?.type).toBe('amount');
  });
});

describe('docs/feeds.md names every registered kind and its fields', () => {
  const docs = readFileSync('docs/feeds.md', 'utf8');
  const fieldsParagraph = docs.slice(docs.indexOf('**Fields per kind**'));
  const paragraph = fieldsParagraph.slice(0, fieldsParagraph.indexOf('\n\n'));

  it('lists the kinds in the `kind` row', () => {
    const row = docs.split('\n').find((line) => line.startsWith('| `kind` |')) ?? '';
    for (const kind of RECORD_KINDS) expect(row).toContain(`\`${kind}\``);
  });

  it.each([...RECORD_KINDS])('%s: its description and every field', (kind) => {
    expect(docs).toContain(`- \`${kind}\` — ${KINDS[kind].description}\n`);
    // The kind's part of the paragraph runs from "<kind> —" to the next kind's "<kind> —".
    const start = paragraph.indexOf(`${kind} —`);
    expect(start, `"${kind} —" in the Fields per kind paragraph`).toBeGreaterThanOrEqual(0);
    const ends = RECORD_KINDS.map((other) => paragraph.indexOf(`${other} —`)).filter((i) => i > start);
    const part = paragraph.slice(start, Math.min(paragraph.length, ...ends));
    for (const [field, spec] of Object.entries(KINDS[kind].fields)) {
      expect(part, `${kind}.${field}`).toMatch(new RegExp(`\\b${field}\\b`));
      if (spec.required) expect(part, `${kind}.${field} in bold`).toContain(`**${field}**`);
    }
  });
});

describe("docs/feeds.md's reference table shows each kind's own feed keys as the kind declares them", () => {
  const rows = readFileSync('docs/feeds.md', 'utf8').split('\n');

  it.each(KIND_FEED_KEYS.map(({ key, spec }) => [key, spec] as const))('%s', (key, { docs }) => {
    const name = docs.formats === undefined ? `\`${key}\`` : `\`${key}\` (${docs.formats})`;
    expect(rows).toContain(`| ${name} | ${docs.type} | ${docs.default} | ${docs.text} |`);
  });
});
