import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openText } from '../../../src/sources/decode.js';
import { readCsv } from '../../../src/sources/formats/csv-reader.js';
import { CsvSource } from '../../../src/sources/formats/csv-source.js';
import { readJsonl } from '../../../src/sources/formats/jsonl-reader.js';
import type { SourceItem } from '../../../src/sources/row.js';
import { fixtureWriter } from '../../support/source-files.js';

const file = fixtureWriter('csv');

async function rows(path: string, source: Partial<CsvSource> = {}) {
  const parsed = CsvSource.parse({ path: 'x', format: 'csv', delimiter: ';', ...source });
  const { items, columns } = readCsv(path, openText(path, parsed.encoding).text, parsed);
  const out: { line: number; cells: Record<string, string | undefined> }[] = [];
  const problems: string[] = [];
  for await (const item of items as AsyncIterable<SourceItem>) {
    if (item.kind === 'problem') problems.push(`${item.problem.line}: ${item.problem.problem}`);
    else {
      const cols = await columns;
      out.push({
        line: item.row.line,
        cells: Object.fromEntries((cols?.names ?? []).map((name, i) => [name, item.row.cell(i + 1)])),
      });
    }
  }
  return { rows: out, problems, columns: await columns };
}

describe('readCsv', () => {
  it('decodes Windows-1252 (ü, €, ß) and ISO-8859-1', async () => {
    const path = file(
      Buffer.from([
        ...Buffer.from('Name;Betrag\n'),
        0x44,
        0xfc,
        0x62,
        0x65,
        0x6c,
        0x3b,
        0x80,
        0x35,
        0xdf,
        0x0a,
      ]),
    );
    expect((await rows(path, { encoding: 'windows-1252' })).rows[0]?.cells).toEqual({
      Name: 'Dübel',
      Betrag: '€5ß',
    });
    expect((await rows(path, { encoding: 'iso-8859-1' })).rows[0]?.cells.Name).toBe('Dübel');
  });

  it('strips a UTF-8 byte-order mark so the first header name stays usable', async () => {
    const { columns } = await rows(file('\ufeffBuchungstag;Betrag\n01.02.2026;1,00\n'));
    expect(columns?.indexOf('Buchungstag')).toBe(0);
  });

  it('keeps quoted delimiters and line breaks inside a cell and reports the starting line', async () => {
    const { rows: r } = await rows(file('a;b\n"x;y";"multi\nline"\n3;4\n'));
    expect(r).toEqual([
      { line: 2, cells: { a: 'x;y', b: 'multi\nline' } },
      { line: 4, cells: { a: '3', b: '4' } },
    ]);
  });

  it('reads CR-only and CRLF line endings, and ignores empty and trailing lines', async () => {
    expect((await rows(file('a;b\r1;2\r3;4\r'))).rows.map((r) => [r.line, r.cells.a])).toEqual([
      [2, '1'],
      [3, '3'],
    ]);
    expect(
      (await rows(file('a;b\r\n1;2\r\n\r\n3;4\r\n\r\n\r\n'))).rows.map((r) => [r.line, r.cells.a]),
    ).toEqual([
      [2, '1'],
      [4, '3'],
    ]);
  });

  it('skips a preamble by count or up to the header pattern, keeping real line numbers', async () => {
    const text = 'Kontoauszug\nZeitraum: Januar;2026\n\nDatum;Betrag\n01.01.2026;5,00\n';
    expect((await rows(file(text), { skipLines: 3 })).rows).toEqual([
      { line: 5, cells: { Datum: '01.01.2026', Betrag: '5,00' } },
    ]);
    expect((await rows(file(text), { headerPattern: '^Datum;' })).rows).toEqual([
      { line: 5, cells: { Datum: '01.01.2026', Betrag: '5,00' } },
    ]);
  });

  it('drops footer lines by count and balance lines by pattern', async () => {
    const text = 'Datum;Betrag\n01.01.2026;5,00\n02.01.2026;6,00\nSaldo;11,00\nErstellt am 03.01.2026\n';
    expect((await rows(file(text), { skipFooterLines: 2 })).rows.map((r) => r.line)).toEqual([2, 3]);
    expect(
      (await rows(file(text), { skipRowsMatching: ['^Saldo;', '^Erstellt'] })).rows.map((r) => r.line),
    ).toEqual([2, 3]);
  });

  it('marks duplicated header names and lets positions address them', async () => {
    const { columns } = await rows(file('Text;Betrag;Text\na;1;b\n'));
    expect([...(columns?.duplicated ?? [])]).toEqual(['Text']);
    expect(columns?.indexOf(3)).toBe(2);
    expect(columns?.indexOf(4)).toBeUndefined();
  });

  it('reports a row with a quote never closed as a problem with its line instead of throwing', async () => {
    const { problems } = await rows(file('a;b\n1;"unclosed\n'));
    expect(problems).toEqual([expect.stringMatching(/^2: a quote \("\) opened .* never closed/)]);
  });
});

describe('readJsonl', () => {
  it('reads objects with line numbers, skips empty lines and reports bad lines', async () => {
    const path = file('{"id":"a","amount":12.5,"customer":{"name":"X"}}\n\nnot json\n[1]\n{"id":"b"}\n');
    const got: string[] = [];
    for await (const item of readJsonl(path, openText(path, 'utf-8').text, 1024)) {
      got.push(
        item.kind === 'row'
          ? `${item.row.line}:${item.row.cell('id')}:${item.row.cell('amount')}:${item.row.cell('customer.name')}`
          : `${item.problem.line}:!${item.problem.problem.slice(0, 14)}`,
      );
    }
    expect(got).toEqual(['1:a:12.5:X', '3:!not valid JSON', '4:!expected a JSO', '5:b:undefined:undefined']);
  });

  it('counts a CRLF split between two chunks as one line end', async () => {
    const text = Readable.from(['{"id":"a"}\r', '\n{"id":"b"}\r', '{"id":"c"}']);
    const lines: string[] = [];
    for await (const item of readJsonl('split.jsonl', text, 1024))
      if (item.kind === 'row') lines.push(`${item.row.line}:${item.row.cell('id')}`);
    expect(lines).toEqual(['1:a', '2:b', '3:c']);
  });

  it('rejects a line longer than maxRowBytes alone (counting UTF-8 bytes), and goes on at the next, whatever the line ends', async () => {
    const long = `{"id":"${'x'.repeat(5000)}"}`;
    // 300 characters of two bytes each: 612 bytes, over a cap of 500 that its length is not.
    const wide = `{"id":"${'ü'.repeat(300)}"}`;
    const path = file(`{"id":"a"}\r\n${long}\r\n{"id":"b"}\r${wide}\n{"id":"c"}`);
    const got: string[] = [];
    for await (const item of readJsonl(path, openText(path, 'utf-8').text, 500)) {
      got.push(
        item.kind === 'row'
          ? `${item.row.line}:${item.row.cell('id')}`
          : `${item.problem.line}:!${item.problem.problem}`,
      );
    }
    expect(got).toEqual([
      '1:a',
      '2:!the line is longer than maxRowBytes (500 bytes); it is rejected, reading goes on at line 3',
      '3:b',
      '4:!the line is longer than maxRowBytes (500 bytes); it is rejected, reading goes on at line 5',
      '5:c',
    ]);
  });
});
