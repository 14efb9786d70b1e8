import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { cliSandboxPerFile, runCli } from '../../support/cli-run.js';

/**
 * Settings that the file itself contradicts (issue 26, points 1 and 4): a declared date format
 * whose values read as valid dates only with day and month exchanged, a delimiter under which the
 * header is one column. Each stops the file before anything is written: exit 2, SOURCE_LAYOUT,
 * a message naming what to change. Run as users run it (the CLI in a child process).
 */
const { work, sandbox, env } = cliSandboxPerFile('contradicted');

interface Exported {
  feedFile: string;
  reportDir: string;
}

/** A transactions feed over one CSV export written into a fresh folder. */
function exported(csv: string, source: Record<string, string>, format: 'csv' | 'jsonl' = 'csv'): Exported {
  const dir = mkdtempSync(join(work, 'feed-'));
  const name = format === 'csv' ? 'export.csv' : 'export.jsonl';
  writeFileSync(join(dir, name), csv);
  const keys = Object.entries(source)
    .map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`)
    .join('\n');
  const feedFile = join(dir, 'feed.yaml');
  writeFileSync(
    feedFile,
    `name: contradicted-${dir.slice(-6).toLowerCase()}
accountId: 1001
kind: transactions
source:
  path: ${name}
  format: ${format}
  encoding: utf-8
${keys}
mapping:
  externalId: ID
  bookingDate: Datum
  amount: Betrag
  currency: { const: EUR }
  purpose: Text
bankAccount:
  externalId: contradicted-giro
  accountName: Giro
  bankName: Testbank
`,
  );
  const reportDir = join(dir, 'reports');
  mkdirSync(reportDir);
  return { feedFile, reportDir };
}

async function sync(feed: Exported) {
  const ran = await runCli(['sync', feed.feedFile, '--report-dir', feed.reportDir], env());
  const [run] = readdirSync(feed.reportDir).filter((entry) => !entry.startsWith('.'));
  const summary = run
    ? (JSON.parse(readFileSync(join(feed.reportDir, run, 'summary.json'), 'utf8')) as RunSummary)
    : undefined;
  return { ...ran, summary };
}

/** Transactions the sandbox holds for the demo account, by externalId: their booking dates. */
function bookedDates(): Map<string, string> {
  const held = new Map<string, string>();
  for (const byAccount of sandbox().runtime.state.accounts.get(1001)?.transactions.values() ?? [])
    for (const t of byAccount.values()) held.set(t.externalId ?? '', t.bookingDate);
  return held;
}

/** `count` rows of day.month.2026 with day <= 12 (they read as valid either way), IDs from `first`. */
function earlyMonthRows(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const day = String((i % 12) + 1).padStart(2, '0');
    const month = String((Math.floor(i / 12) % 12) + 1).padStart(2, '0');
    return `${prefix}-${i + 1};${day}.${month}.2026;-1,00;Miete`;
  });
}

describe('a declared date format the file contradicts (issue 26, point 1)', () => {
  it('stops a dd.MM.yyyy export declared MM.dd.yyyy before any write, even when the contradiction comes after 1,500 rows', async () => {
    const rows = [
      ...earlyMonthRows('LATE', 1500),
      'LATE-1501;13.01.2026;-2,00;Miete',
      'LATE-1502;24.02.2026;-3,00;Miete',
    ];
    const feed = exported(['ID;Datum;Betrag;Text', ...rows].join('\n'), {
      delimiter: ';',
      decimalSeparator: ',',
      dateFormat: 'MM.dd.yyyy',
    });
    const ran = await sync(feed);
    expect(ran.code).toBe(2);
    expect(ran.summary?.stopReason?.code).toBe('SOURCE_LAYOUT');
    const message = ran.summary?.stopReason?.message ?? '';
    // The column, the declared format, the format the values fit, two example lines.
    expect(message).toContain('"Datum"');
    expect(message).toContain('MM.dd.yyyy');
    expect(message).toContain('dd.MM.yyyy');
    expect(message).toContain('line 1502');
    expect(message).toContain('13.01.2026');
    expect(message).toContain('line 1503');
    expect(ran.stdout + ran.stderr).toContain('SOURCE_LAYOUT');
    // Nothing of the file was created, in particular no row with day and month swapped.
    expect([...bookedDates().keys()].filter((id) => id.startsWith('LATE-'))).toEqual([]);
  });

  it('a file whose every date fits both readings (all days <= 12) is synced as declared', async () => {
    const feed = exported(['ID;Datum;Betrag;Text', ...earlyMonthRows('EARLY', 30)].join('\n'), {
      delimiter: ';',
      decimalSeparator: ',',
      dateFormat: 'MM.dd.yyyy',
    });
    const ran = await sync(feed);
    expect(ran.code).toBe(0);
    // EARLY-2 is 02.01.2026: January 2nd read as MM.dd.yyyy is February 1st... as declared.
    expect(bookedDates().get('EARLY-2')).toBe('2026-02-01');
  });

  it('a date mentioned in another column (purpose text) contradicts nothing', async () => {
    const feed = exported(
      ['ID;Datum;Betrag;Text', 'TEXT-1;01.13.2026;-1,00;Rechnung vom 13.01.2026'].join('\n'),
      { delimiter: ';', decimalSeparator: ',', dateFormat: 'MM.dd.yyyy' },
    );
    const ran = await sync(feed);
    expect(ran.code).toBe(0);
    expect(bookedDates().get('TEXT-1')).toBe('2026-01-13');
  });

  it('stops a JSON Lines export whose dates contradict the declared format', async () => {
    const lines = [
      ...Array.from({ length: 20 }, (_, i) =>
        JSON.stringify({
          ID: `JL-${i + 1}`,
          Datum: `0${(i % 9) + 1}/01/2026`,
          Betrag: '-1.00',
          Text: 'Miete',
        }),
      ),
      JSON.stringify({ ID: 'JL-21', Datum: '25/03/2026', Betrag: '-1.00', Text: 'Miete' }),
    ];
    const feed = exported(lines.join('\n'), { dateFormat: 'MM/dd/yyyy' }, 'jsonl');
    const ran = await sync(feed);
    expect(ran.code).toBe(2);
    expect(ran.summary?.stopReason?.code).toBe('SOURCE_LAYOUT');
    expect(ran.summary?.stopReason?.message).toContain('dd/MM/yyyy');
    expect(ran.summary?.stopReason?.message).toContain('line 21');
    expect([...bookedDates().keys()].filter((id) => id.startsWith('JL-'))).toEqual([]);
  });
});

describe('a delimiter the file does not use (issue 26, point 4)', () => {
  const semicolons = [
    'ID;Datum;Betrag;Text',
    'D-1;05.01.2026;-12,50;Miete',
    'D-2;06.01.2026;-3,10;Strom',
  ].join('\n');

  it.each([',', '|'])(
    'delimiter "%s" on a ";" export: exit 2 naming the header and ";"',
    async (delimiter) => {
      const feed = exported(semicolons, { delimiter, decimalSeparator: ',', dateFormat: 'dd.MM.yyyy' });
      const ran = await sync(feed);
      expect(ran.code).toBe(2);
      expect(ran.summary?.stopReason?.code).toBe('SOURCE_LAYOUT');
      const message = ran.summary?.stopReason?.message ?? '';
      expect(message).toContain('ID;Datum;Betrag;Text');
      expect(message).toContain(`delimiter "${delimiter}"`);
      expect(message).toContain('";"');
      expect(ran.summary?.counts?.rejected ?? 0).toBe(0);
    },
    30_000,
  );
});
