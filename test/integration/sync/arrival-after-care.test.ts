import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globbedExport } from '../../support/generated-exports.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness;
beforeAll(async () => {
  h = await syncHarness();
});
afterAll(() => h.close());

/** Five records; every feed of this file shares one target (the sandbox allows five per account). */
const exportWith = (name: string, sourceKeys: string[]) =>
  globbedExport(name, { sourceKeys, bankAccount: 'care-giro' });

const BULK = 'createTransactionsBulk';

describe('after a sync run (source.afterRun)', () => {
  it('leave (default): the export stays where it is', async () => {
    const exp = exportWith('care-leave', []);
    const run = await h.run(exp.feedFile);
    expect(run.summary.counts.created).toBe(5);
    expect(existsSync(exp.file)).toBe(true);
  });

  it('move: a run that synced every record moves the file to processed/ once the summary is written', async () => {
    const exp = exportWith('care-move', ['afterRun: move']);
    const run = await h.run(exp.feedFile);
    expect(run.summary.counts.created).toBe(5);
    expect(existsSync(run.files.summary)).toBe(true);
    expect(existsSync(exp.file)).toBe(false);
    expect(readFileSync(join(exp.dir, 'processed', 'umsaetze.csv'), 'latin1')).toContain('care-move-000001');
    // Moved out of the glob: the next run has nothing to read (and the folder is not matched).
    const again = await h.run(exp.feedFile);
    expect(again.summary.files).toEqual([]);
  });

  it('move: a file with failed records goes to failed/ (another run must read it), rejected rows do not count', async () => {
    const exp = exportWith('care-failed', ['afterRun: move', 'failedFolder: quarantine']);
    h.setFaults({ script: [{ op: BULK, fault: '500', times: 4 }] });
    try {
      const run = await h.run(exp.feedFile);
      expect(run.summary.counts.failed).toBe(5);
    } finally {
      h.setFaults();
    }
    expect(existsSync(exp.file)).toBe(false);
    expect(readdirSync(join(exp.dir, 'quarantine'))).toEqual(['umsaetze.csv']);
  });

  it('move: a stopped file (it cannot be decoded as declared) goes to failed/', async () => {
    const exp = exportWith('care-stopped', ['afterRun: move']);
    writeFileSync(
      exp.feedFile,
      readFileSync(exp.feedFile, 'utf8').replace('encoding: windows-1252', 'encoding: utf-8'),
    );
    const run = await h.run(exp.feedFile);
    expect(run.summary.stopReason?.code).toBe('ENCODING_INVALID');
    expect(readdirSync(join(exp.dir, 'failed'))).toEqual(['umsaetze.csv']);
  });

  it('delete: the file is gone after the run, and a dry run never touches it', async () => {
    const exp = exportWith('care-delete', ['afterRun: delete']);
    const dry = await h.run(exp.feedFile, true);
    expect(dry.summary.wouldSend).toBe(5);
    expect(existsSync(exp.file)).toBe(true);
    await h.run(exp.feedFile);
    expect(existsSync(exp.file)).toBe(false);
  });

  it('an interrupted run (Ctrl-C before it finished) leaves its files where they are', async () => {
    const exp = exportWith('care-interrupted', ['afterRun: delete']);
    const interrupt = new AbortController();
    interrupt.abort('SIGINT');
    const run = await h.run(exp.feedFile, false, undefined, { interrupt: interrupt.signal });
    expect(run.summary.state).toBe('interrupted');
    expect(existsSync(exp.file)).toBe(true);
  });
});

describe('arrival (source.arrival)', () => {
  it('marker: a file without its .done marker is listed as waiting and not read; with it, imported and moved with it', async () => {
    const exp = exportWith('arrive-marker', ['arrival: marker', 'afterRun: move']);
    const first = await h.run(exp.feedFile);
    expect(first.summary.files).toEqual([]);
    expect(first.summary.waiting).toEqual([
      { path: exp.file, reason: `no marker file ${exp.file}.done yet` },
    ]);
    expect(h.transactions(1001).filter((t) => t.externalId?.startsWith('arrive-marker'))).toHaveLength(0);

    writeFileSync(`${exp.file}.done`, '');
    const second = await h.run(exp.feedFile);
    expect(second.summary.counts.created).toBe(5);
    expect(second.summary.waiting).toBeUndefined();
    expect(readdirSync(join(exp.dir, 'processed')).sort()).toEqual(['umsaetze.csv', 'umsaetze.csv.done']);
  });

  it('stable: a file that grows between the two listings waits; unchanged, the next run imports it', async () => {
    const exp = exportWith('arrive-stable', ['arrival: { type: stable, stableAfterSeconds: 5 }']);
    const sleep = h.clock.sleep;
    const slept: number[] = [];
    // The writer appends a line while the run waits between its two listings.
    h.clock.sleep = async (ms, signal) => {
      slept.push(ms);
      if (ms === 5000)
        appendFileSync(exp.file, 'arrive-stable-000099;01.01.2026;01.01.2026;X;Y;1,00;Umsatz gebucht\r\n');
      return sleep(ms, signal);
    };
    let first: Awaited<ReturnType<SyncHarness['run']>>;
    try {
      first = await h.run(exp.feedFile);
    } finally {
      h.clock.sleep = sleep;
    }
    expect(slept[0]).toBe(5000);
    expect(first.summary.files).toEqual([]);
    expect(first.summary.waiting?.[0]).toMatchObject({
      path: exp.file,
      reason: expect.stringMatching(/still changing/),
    });

    const second = await h.run(exp.feedFile);
    expect(second.summary.waiting).toBeUndefined();
    expect(second.summary.counts.created).toBe(6);
  });
});
