import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../support/cli-run.js';
import { germanCsvFeedText } from '../../support/feed-text.js';
import { fillIn, GERMAN_EXPORT, shownRecords } from '../../support/init-cli.js';

/**
 * `erp-bridge init` as users run it (a child process, no PARTNER_*), on exports this test writes,
 * then `check` and `sync` on what it wrote.
 */
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-init-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (args: readonly string[]) => runCli(args, {});

/** A folder with the export under exports/; returns the folder. */
function exportIn(name: string, file: string, bytes: Buffer | string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'exports'), { recursive: true });
  writeFileSync(join(dir, 'exports', file), bytes);
  return dir;
}

describe('erp-bridge init', () => {
  const dir = exportIn('german', 'umsaetze-2026-01.csv', GERMAN_EXPORT);
  const feed = join(dir, 'config', 'feeds', 'umsaetze.yaml');
  const exportFile = join(dir, 'exports', 'umsaetze-2026-01.csv');

  it('writes a commented feed and prints each setting, how sure, what is left and what to run next', async () => {
    const ran = await cli(['init', exportFile, '--out', feed]);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`wrote ${feed} from ${exportFile}`);
    expect(ran.stdout).toMatch(/source\.encoding\s+"windows-1252"\s+sure\s+not valid UTF-8/);
    expect(ran.stdout).toMatch(/source\.delimiter\s+";"\s+sure\s/);
    expect(ran.stdout).toMatch(/source\.dateFormat\s+"dd\.MM\.yyyy"\s+sure\s/);
    expect(ran.stdout).toMatch(/mapping\.externalId\s+"Buchungs-ID"\s+guess\s/);
    expect(ran.stdout).toMatch(/kind\s+"transactions"\s+guess\s/);
    expect(ran.stdout).toContain('to fill in before check and sync accept the feed');
    expect(ran.stdout).toContain('  accountId: the customer account id');
    expect(ran.stdout).toContain('  bankAccount.bankName: the bank’s name');
    expect(ran.stdout.trimEnd().split('\n').at(-1)).toBe(`next: erp-bridge check ${feed}`);

    const text = readFileSync(feed, 'utf8');
    expect(text).toContain(
      '  # sure: "1.190,00" in column "Betrag" reads only with ","\n  decimalSeparator: ","',
    );
    const doc = parse(text);
    // The export's series, relative to the feed file's folder.
    expect(doc.source.path).toBe('../../exports/umsaetze-*.csv');
    expect(doc.name).toBe('umsaetze');
  });

  it('never overwrites without --force (exit 2 naming the file); --force does', async () => {
    writeFileSync(feed, '# mine\n');
    const refused = await cli(['init', exportFile, '--out', feed]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${feed} exists: not overwritten`);
    expect(readFileSync(feed, 'utf8')).toBe('# mine\n');
    const forced = await cli(['init', exportFile, '--out', feed, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(feed, 'utf8')).toContain('name: "umsaetze"');
  });

  it('check and sync refuse the unfilled feed (exit 2), naming each placeholder and what to put there', async () => {
    for (const args of [
      ['check', feed],
      ['sync', '--sandbox', '--dry-run', feed],
    ]) {
      const ran = await cli(args);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(`${feed}: not filled in yet`);
      expect(ran.stderr).toContain('- accountId: fill in the customer account id, a number');
      expect(ran.stderr).toContain('- bankAccount.externalId: fill in your ID of the bank account');
    }
  });

  it('filled in, check reads the same records as a hand-written feed (exit 0)', async () => {
    fillIn(feed);
    const inferred = await cli(['check', feed, '--show', '10']);
    expect(inferred.stderr).toBe('');
    expect(inferred.code).toBe(0);
    const hand = join(dir, 'hand.yaml');
    writeFileSync(
      hand,
      germanCsvFeedText(
        'hand',
        [
          'externalId: Buchungs-ID',
          'bookingDate: Buchungstag',
          'valueDate: Valuta',
          'amount: { column: Betrag, sign: { column: S/H } }',
          'purpose: Verwendungszweck',
          'counterpartyName: Auftraggeber/Empfänger',
        ].join('\n  '),
        'externalId: giro\n  accountName: Giro\n  bankName: Musterbank',
      ),
    );
    const written = await cli(['check', hand, '--show', '10']);
    expect(written.code).toBe(0);
    const records = shownRecords(inferred.stdout);
    expect(records).toHaveLength(3);
    expect(records).toEqual(shownRecords(written.stdout));
    expect(records[1]).toContain('"amount":-84.5');
  });

  it('MM/dd/yyyy dates whose days are all <= 12: the feed asks, and check refuses until the person decides', async () => {
    const us = exportIn(
      'us',
      'activity.csv',
      'Transaction ID,Booking Date,Amount,Description\nT1,01/02/2026,-12.50,Coffee\nT2,03/04/2026,100.00,Salary\nT3,05/06/2026,-7.25,Lunch\n',
    );
    const out = join(us, 'activity.yaml');
    const ran = await cli(['init', join(us, 'exports', 'activity.csv'), '--out', out, '--account-id', '7']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/source\.dateFormat\s+\?\s+ask\s+day and month cannot be told apart/);
    expect(ran.stdout).toContain('  source.dateFormat: the dateFormat, one of "dd/MM/yyyy", "MM/dd/yyyy"');
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`  dateFormat: '<fill in: the dateFormat, one of "dd/MM/yyyy", "MM/dd/yyyy">'`);
    expect(parse(text).accountId).toBe(7);
    fillIn(out);
    const checked = await cli(['check', out]);
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain(
      '- source.dateFormat: fill in the dateFormat, one of "dd/MM/yyyy", "MM/dd/yyyy"',
    );
  });

  it('an export that cannot be read, or is no table: exit 2, nothing written', async () => {
    const missing = await cli(['init', join(work, 'nope.csv'), '--out', join(work, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.csv: cannot read the export (no such file)');
    const prose = exportIn('prose', 'notes.txt', 'Dear customer,\nthank you for your order.\n');
    const out = join(prose, 'notes.yaml');
    const notTable = await cli(['init', join(prose, 'exports', 'notes.txt'), '--out', out]);
    expect(notTable.code).toBe(2);
    expect(notTable.stderr).toContain('not an export init can read: no delimited table found');
    expect(existsSync(out)).toBe(false);
  });
});
