import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../../src/report-files/csv.js';
import { OUTCOME_COLUMNS, outcomeCsvLine, outcomeJsonLine } from '../../../src/report-files/file-sink.js';

describe('report CSV cells', () => {
  it('neutralises formula injection but keeps negative numbers numeric', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+49 123')).toBe("'+49 123");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-cmd|calc')).toBe("'-cmd|calc");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('-22.59')).toBe('-22.59');
    expect(csvCell(-5)).toBe('-5');
  });

  it('quotes delimiters, quotes and line breaks, and leaves empty values empty', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['a', 1, undefined])).toBe('a,1,\r\n');
  });
});

describe('outcome CSV lines', () => {
  it('writes the cells in the order of OUTCOME_COLUMNS, the header of outcomes.csv', () => {
    const outcome = {
      file: 'in.csv',
      line: 7,
      externalId: 'BU-1',
      outcome: 'rejected' as const,
      serviceId: 42,
      code: 'INVALID_RECORD',
      message: 'amount: expected a number',
      amount: '-1.50',
      key: '4711',
    };
    const withRun = { ...outcome, runId: 'feed-20260101T000000Z-abc' };
    expect(outcomeCsvLine(outcome, withRun.runId)).toBe(
      csvLine(OUTCOME_COLUMNS.map((column) => withRun[column])),
    );
    expect(Object.keys(withRun).sort()).toEqual([...OUTCOME_COLUMNS].sort());
  });
});

describe('outcome NDJSON lines', () => {
  it('are the JSON of the outcome, keys in column order, absent fields left out, text escaped', () => {
    const outcomes = [
      {
        file: 'a.csv',
        line: 2,
        externalId: 'BU-1',
        outcome: 'created' as const,
        serviceId: 7,
        amount: '-1.5',
      },
      {
        file: 'a.csv',
        line: 3,
        outcome: 'rejected' as const,
        code: 'INVALID_RECORD',
        message: 'say "hi"\nnext',
      },
      { file: 'C:\\exports\\b "x".csv', line: 1, externalId: 'Ä-€', outcome: 'skipped' as const },
      {
        file: 'a.csv',
        line: 4,
        externalId: 'BU-4',
        outcome: 'failed' as const,
        code: 'X',
        message: '',
        amount: '0',
      },
    ];
    for (const o of outcomes) {
      const line = outcomeJsonLine(o, 'run-1');
      expect(line.endsWith('}\n')).toBe(true);
      expect(JSON.parse(line)).toEqual({ ...o, runId: 'run-1' });
      const withRun = { ...o, runId: 'run-1' };
      const ordered = Object.fromEntries(
        OUTCOME_COLUMNS.filter((c) => withRun[c as keyof typeof withRun] !== undefined).map((c) => [
          c,
          withRun[c as keyof typeof withRun],
        ]),
      );
      expect(line).toBe(`${JSON.stringify(ordered)}\n`);
    }
  });
});
