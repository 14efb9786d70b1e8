import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageOf } from '../../../src/console/record-search.js';
import { ConsoleOutcome } from '../../../src/console/summary-schemas.js';
import { MAX_LINE_BYTES, scanLines } from '../../../src/report-files/capped-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'console-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (n: number, outcome: string) =>
  `${JSON.stringify({ file: 'a.csv', line: n, externalId: `R-${n}`, outcome, code: 'C', message: 'm', runId: 'r' })}\n`;

describe('outcome lines read with caps', () => {
  it('pages a large file keeping one page, counting every match', async () => {
    const path = join(dir, 'big.ndjson');
    const out = createWriteStream(path);
    for (let n = 1; n <= 200_000; n++)
      if (!out.write(line(n, n % 10 === 0 ? 'rejected' : 'created'))) await once(out, 'drain');
    out.end();
    await once(out, 'close');
    const scan = scanLines(path, ConsoleOutcome, (o) => o.outcome === 'rejected');
    const page = await pageOf(scan, { q: '', page: 3, pageSize: 10 });
    expect(page.matched).toBe(20_000);
    expect(page.items.map((o) => o.line)).toEqual(Array.from({ length: 10 }, (_, i) => 210 + i * 10));
    expect(page.truncated).toBe(false);
  });

  it('stops after the cap and says the counts are a lower bound', async () => {
    const path = join(dir, 'capped.ndjson');
    writeFileSync(path, Array.from({ length: 100 }, (_, i) => line(i + 1, 'rejected')).join(''));
    const page = await pageOf(
      scanLines(path, ConsoleOutcome, () => true, { maxLines: 40 }),
      { q: '', page: 1, pageSize: 5 },
    );
    expect(page.matched).toBe(40);
    expect(page.truncated).toBe(true);
  });

  it('skips an over-long line and damaged lines without holding them; a missing file reads as none', async () => {
    const path = join(dir, 'damaged.ndjson');
    writeFileSync(
      path,
      `${line(1, 'failed')}${'x'.repeat(MAX_LINE_BYTES * 3)}\n{"file":1}\n${line(4, 'failed')}`,
    );
    const page = await pageOf(
      scanLines(path, ConsoleOutcome, () => true),
      { q: '', page: 1, pageSize: 10 },
    );
    expect(page.items.map((o) => o.line)).toEqual([1, 4]);
    expect(page.unreadable).toBe(2);
    const none = await pageOf(
      scanLines(join(dir, 'absent.ndjson'), ConsoleOutcome, () => true, { missingIsEmpty: true }),
      { q: '', page: 1, pageSize: 10 },
    );
    expect(none.matched).toBe(0);
  });
});
