import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileReportSink } from '../../../src/report-files/file-sink.js';
import { summaryOf } from '../../support/run-summaries.js';

/**
 * A file written in place is truncated first: a kill mid-write leaves half of it. Written aside and
 * renamed, the name points at the old file or the whole new one. Seen from outside without mocks:
 * a hard link to the old file keeps the old content (a new inode took the name); an in-place write
 * would change both.
 */
const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('summary.json is replaced, never rewritten in place (the health state file shares the helper)', () => {
  it('summary.json', async () => {
    const sink = await FileReportSink.create(dir, 'run-1');
    writeFileSync(sink.files.summary, 'old');
    const before = join(dir, 'before.json');
    linkSync(sink.files.summary, before);
    const summary = summaryOf({ runId: 'run-1', created: 2 });
    await sink.finish(summary);
    expect(readFileSync(before, 'utf8')).toBe('old');
    expect(JSON.parse(readFileSync(sink.files.summary, 'utf8'))).toEqual(summary);
    expect(statSync(sink.files.summary).ino).not.toBe(statSync(before).ino);
    expect(readdirSync(sink.files.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
