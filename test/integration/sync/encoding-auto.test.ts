import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

const DEMO = 'config/feeds/demo';

/**
 * The demo ACME bank export is Windows-1252 (a bank's usual encoding). Its feed, with the
 * `encoding:` line removed, is synced with the default (`auto`): the umlauts reach the service
 * as written, no U+FFFD anywhere, and the summary says what was chosen. Issue 11 case 4 wrote
 * "EDEKA D\uFFFDBEL" with the old default (utf-8).
 */
function acmeFeedWithDefaultEncoding(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-encoding-auto-'));
  mkdirSync(join(dir, 'exports', 'acme-bank'), { recursive: true });
  copyFileSync(
    `${DEMO}/exports/acme-bank/umsaetze-2026-02.csv`,
    join(dir, 'exports', 'acme-bank', 'umsaetze-2026-02.csv'),
  );
  const yaml = readFileSync(`${DEMO}/acme-bank.yaml`, 'utf8');
  const withoutEncoding = yaml.replace(/^\s*encoding: .*\n/m, '');
  expect(withoutEncoding).not.toContain('encoding:');
  const feedFile = join(dir, 'acme-bank.yaml');
  writeFileSync(feedFile, withoutEncoding);
  return feedFile;
}

describe('encoding: auto (the default) on a Windows-1252 bank export, end to end', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it('creates the umlauts as written, reports windows-1252 chosen by auto, and a rerun creates nothing', async () => {
    const feedFile = acmeFeedWithDefaultEncoding();
    const first = await h.run(feedFile);
    expect(first.summary.stopReason).toBeUndefined();
    expect(first.summary.files).toHaveLength(1);
    expect(first.summary.files[0]?.encoding).toMatchObject({ name: 'windows-1252', chosenBy: 'auto' });
    expect(first.summary.files[0]?.encoding?.reason).toMatch(
      /^not valid UTF-8 \(byte 0xE4 at byte offset \d+\)$/,
    );
    expect(first.summary.counts.created).toBe(6);
    // The summary on disk says it too (what a user reads).
    const onDisk = JSON.parse(readFileSync(first.files.summary, 'utf8')) as typeof first.summary;
    expect(onDisk.files[0]?.encoding).toEqual(first.summary.files[0]?.encoding);

    const stored = await h.stored(1001, 'transactions');
    expect(JSON.stringify(stored)).not.toContain('\ufffd');
    const names = h.transactions(1001).map((t) => t.counterpartyName);
    expect(names).toEqual(
      expect.arrayContaining(['Müller & Söhne GmbH', 'Bürobedarf Weiß KG', 'Kunde Ä. Özdemir']),
    );
    const purposes = h.transactions(1001).map((t) => t.purpose);
    expect(purposes).toContain('Rechnung RE-1002 € Zahlung');

    const second = await h.run(feedFile);
    expect(second.summary.counts.created).toBe(0);
    expect(exitCodeOfRun(second)).toBe(exitCodeOfRun(first));
  });
});
