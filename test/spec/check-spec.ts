/**
 * Checks the project's contract data against the interface specification's text, which is not part
 * of the repository: the caller names the file (CI's .ci/run does, when it has one). `npm test`
 * never reads the specification: src/contract is its truth. This script keeps that truth honest: a
 * row added to, changed in or removed from the spec's error table fails here.
 *
 *   npm run spec:check -- path/to/partner-api.md
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_TABLE, type ErrorTableRow } from '../../src/contract/error-table.js';

const given = process.argv[2];
if (!given) {
  console.error('spec:check: name the specification file, e.g. npm run spec:check -- path/to/partner-api.md');
  process.exit(2);
}
const specPath = resolve(given);

/** The spec's "Codes per operation" table: the rows between its heading and the next heading or note. */
function specErrorRows(text: string): ErrorTableRow[] {
  const section =
    text.split('### Codes per operation')[1]?.split('\n### ')[0]?.split('\nError codes for')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\|\s*[^|-]/.test(line) && !line.includes('| Operation |'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => ({
      operation: cells[1] ?? '',
      status: Number(cells[2]),
      error: cells[3] ?? '',
      condition: cells[4] ?? '',
    }));
}

const key = (r: ErrorTableRow) => `${r.operation} | ${r.status} | ${r.error} | ${r.condition}`;

if (!existsSync(specPath)) {
  console.error(`spec:check: ${specPath} does not exist`);
  process.exit(2);
}
const spec = specErrorRows(readFileSync(specPath, 'utf8'));
const ours = new Set(ERROR_TABLE.map(key));
const theirs = new Set(spec.map(key));
const missing = spec.filter((r) => !ours.has(key(r))).map(key);
const extra = ERROR_TABLE.filter((r) => !theirs.has(key(r))).map(key);
for (const row of missing) console.error(`in the spec, not in src/contract/error-table.ts: ${row}`);
for (const row of extra) console.error(`in src/contract/error-table.ts, not in the spec: ${row}`);
const failed = spec.length === 0 ? 1 : missing.length + extra.length;
if (spec.length === 0) console.error(`spec:check: no "Codes per operation" table found in ${specPath}`);
console.log(`spec:check: ${spec.length - missing.length} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
