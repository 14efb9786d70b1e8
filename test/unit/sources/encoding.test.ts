import { writeFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import {
  DecodeError,
  decodeStream,
  decodeWindows1252,
  openCheckedText,
} from '../../../src/sources/decode.js';
import { EncodingError } from '../../../src/sources/file-stop.js';
import { readCsv } from '../../../src/sources/formats/csv-reader.js';
import type { SourceEncoding } from '../../../src/sources/formats/shared-keys.js';
import { openRecords, recordsOf } from '../../../src/sources/open-records.js';
import { fixtureWriter } from '../../support/source-files.js';

/**
 * `source.encoding`: auto-detection (the default) and the strict check of a declared encoding.
 * Every read goes through the two passes a sync takes (openCheckedText); a small read size puts
 * chunk boundaries inside multi-byte sequences.
 */

const write = fixtureWriter('encoding');
const HEADER = 'ID;Name\r\n';
const GERMAN = 'K1;Dübel Größe Müller €5 „Öl“\r\nK2;EDEKA DÖBEL\r\n';

async function decode(content: string | Uint8Array, encoding: SourceEncoding = 'auto', chunk = 64 * 1024) {
  const opened = await openCheckedText(write(content), encoding, chunk);
  let text = '';
  for await (const part of opened.text) text += part;
  return { text, encoding: opened.encoding };
}

/** The EncodingError reading `content` as `encoding` ends with (fails when it reads). */
async function refused(content: string | Uint8Array, encoding: SourceEncoding, chunk = 64 * 1024) {
  const path = write(content);
  const error = await openCheckedText(path, encoding, chunk).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EncodingError)) throw new Error(`expected an EncodingError, got ${String(error)}`);
  expect(error.message.startsWith(`${path}: `)).toBe(true);
  expect(error.file).toBe(path);
  return error;
}

const utf16 = (text: string, bigEndian: boolean) => {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return bigEndian ? le.swap16() : le;
};

describe('encoding: auto (the default)', () => {
  it('is the default of source.encoding', () => {
    const feed = Feed.parse({
      name: 'f',
      accountId: 1,
      kind: 'transactions',
      source: { path: 'x', format: 'csv' },
      bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
      mapping: { externalId: 'ID', bookingDate: 'D', amount: 'A' },
    });
    if (feed.source.format !== 'csv') throw new Error('expected a csv source');
    expect(feed.source.encoding).toBe('auto');
  });

  it('reads a UTF-8 byte-order mark as UTF-8 and strips it', async () => {
    expect(await decode(`\ufeff${HEADER}${GERMAN}`)).toEqual({
      text: `${HEADER}${GERMAN}`,
      encoding: { name: 'utf-8', chosenBy: 'auto', reason: 'UTF-8 byte-order mark' },
    });
  });

  it.each([
    ['utf-16le', false],
    ['utf-16be', true],
  ] as const)('reads a %s byte-order mark as that UTF-16', async (name, bigEndian) => {
    // An odd chunk size splits code units and the surrogate pair of the emoji.
    const text = `${HEADER}${GERMAN}K3;Café ☕ 😀\r\n`;
    expect(await decode(utf16(text, bigEndian), 'auto', 7)).toEqual({
      text,
      encoding: {
        name,
        chosenBy: 'auto',
        reason: `${name === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'} byte-order mark`,
      },
    });
  });

  it('reads valid UTF-8 without a byte-order mark as UTF-8, whatever the chunk boundaries', async () => {
    for (const chunk of [1, 2, 3, 5, 64 * 1024])
      expect(await decode(`${HEADER}${GERMAN}K3;😀\r\n`, 'auto', chunk)).toEqual({
        text: `${HEADER}${GERMAN}K3;😀\r\n`,
        encoding: { name: 'utf-8', chosenBy: 'auto', reason: 'valid UTF-8' },
      });
  });

  it('reads Windows-1252 bytes with umlauts as Windows-1252 (no U+FFFD)', async () => {
    const bytes = iconv.encode(`${HEADER}${GERMAN}`, 'win1252');
    const { text, encoding } = await decode(bytes);
    expect(text).toBe(`${HEADER}${GERMAN}`);
    expect(text).not.toContain('\ufffd');
    const offset = bytes.indexOf(0xfc); // the ü of "Dübel"
    expect(encoding).toEqual({
      name: 'windows-1252',
      chosenBy: 'auto',
      reason: `not valid UTF-8 (byte 0xFC at byte offset ${offset})`,
    });
  });

  it('finds a byte that is not UTF-8 right at a chunk boundary, after valid UTF-8 before it', async () => {
    // "é" as UTF-8 ends exactly at the first boundary, the lone 0xE4 (Windows-1252 "ä") starts the
    // second chunk; then a sequence cut in two by the next boundary.
    const head = Buffer.from('ID;Caf\u00e9', 'utf8'); // 9 bytes
    const bytes = Buffer.concat([head, Buffer.from([0xe4, 0x0d, 0x0a])]);
    expect(await decode(bytes, 'auto', head.length)).toMatchObject({
      encoding: { name: 'windows-1252', reason: `not valid UTF-8 (byte 0xE4 at byte offset ${head.length})` },
    });
    // UTF-8 "ü" (C3 BC) split over the boundary is valid; C3 followed by a non-continuation is not.
    expect((await decode(Buffer.from('ab\u00fcc'), 'auto', 3)).encoding.name).toBe('utf-8');
    expect((await decode(Buffer.from([0x61, 0x62, 0xc3, 0x41]), 'auto', 3)).encoding.name).toBe(
      'windows-1252',
    );
  });

  it('a UTF-8 byte-order mark followed by bytes that are not UTF-8 stops the file (mixed encodings)', async () => {
    const bytes = Buffer.concat([Buffer.from(`\ufeff${HEADER}K1;`), Buffer.from([0xfc, 0x0d, 0x0a])]);
    const error = await refused(bytes, 'auto');
    expect(error.at).toEqual({ line: 2, offset: 3 + HEADER.length + 3 });
    expect(error.message).toContain('starts with a UTF-8 byte-order mark but is not valid UTF-8 at line 2');
  });

  it('refuses a file that is neither UTF-8 nor Windows-1252, naming the undefined byte', async () => {
    const bytes = Buffer.concat([
      Buffer.from(HEADER),
      Buffer.from('K1;D'),
      Buffer.from([0x81, 0x62, 0x65, 0x6c]),
    ]);
    const error = await refused(bytes, 'auto');
    expect(error.message).toContain('neither UTF-8');
    expect(error.message).toContain(`at line 2, byte offset ${HEADER.length + 4} (0x81)`);
    expect(error.message).toContain('CP850');
  });
});

describe('a declared encoding is checked, and invalid bytes stop the file', () => {
  it('utf-8 with Windows-1252 bytes: names line, byte offset, byte and suggests windows-1252', async () => {
    const bytes = iconv.encode(`${HEADER}K0;plain\nK1;Dübel\r\n`, 'win1252');
    const error = await refused(bytes, 'utf-8');
    const offset = bytes.indexOf(0xfc);
    expect(error.at).toEqual({ line: 3, offset });
    expect(error.message).toContain(
      `not valid UTF-8 at line 3, byte offset ${offset} (0xFC): the file looks like Windows-1252; set \`encoding: windows-1252\` or \`auto\``,
    );
    expect(error.code).toBe('ENCODING_INVALID');
  });

  it('counts CR, LF and CRLF line ends alike for the line it names', async () => {
    const bytes = Buffer.concat([Buffer.from('a\rb\nc\r\nd'), Buffer.from([0xe4])]);
    expect((await refused(bytes, 'utf-8')).at).toEqual({ line: 4, offset: 8 });
  });

  it('utf-8 with a UTF-16 byte-order mark suggests utf-16le', async () => {
    const error = await refused(utf16('ID;Name\n', false), 'utf-8');
    expect(error.message).toContain('UTF-16LE byte-order mark; set `encoding: utf-16le` or `auto`');
  });

  it('windows-1252 with an undefined byte (0x81, 0x8D, 0x8F, 0x90, 0x9D) stops the file', async () => {
    for (const byte of [0x81, 0x8d, 0x8f, 0x90, 0x9d]) {
      const bytes = Buffer.concat([Buffer.from('ID;Name\nK1;D'), Buffer.from([0xfc, byte, 0x0a])]);
      const error = await refused(bytes, 'windows-1252');
      expect(error.at).toEqual({ line: 2, offset: 13 });
      expect(error.message).toContain('not valid Windows-1252 at line 2, byte offset 13');
    }
  });

  it.each(['windows-1252', 'iso-8859-1'] as const)(
    '%s on a UTF-8 file stops instead of writing "Ã¼"',
    async (name) => {
      const error = await refused(`${HEADER}${GERMAN}`, name);
      expect(error.message).toContain(`at line 2, byte offset ${HEADER.length + 4} (0xC3)`);
      expect(error.message).toContain('set `encoding: utf-8` or `auto`');
    },
  );

  it('utf-16le on a file with a UTF-16BE byte-order mark stops the file instead of reading it byte-swapped', async () => {
    const error = await refused(utf16('ID;Name\n', true), 'utf-16le');
    expect(error.at).toEqual({ line: 1, offset: 0 });
    expect(error.message).toContain('UTF-16BE byte-order mark; set `encoding: utf-16be` or `auto`');
  });

  it('utf-16le with an unpaired surrogate stops the file', async () => {
    const bytes = Buffer.concat([utf16('ID\nK1;', false), Buffer.from([0x3d, 0xd8, 0x41, 0x00])]);
    const error = await refused(bytes, 'utf-16le', 3);
    expect(error.at).toEqual({ line: 2, offset: 14 });
  });

  it('declared encodings that fit decode as before and say they came from the feed', async () => {
    const text = `${HEADER}${GERMAN}`;
    expect(await decode(iconv.encode(text, 'win1252'), 'windows-1252')).toEqual({
      text,
      encoding: { name: 'windows-1252', chosenBy: 'feed' },
    });
    expect(await decode(text, 'utf-8', 3)).toEqual({ text, encoding: { name: 'utf-8', chosenBy: 'feed' } });
    expect((await decode(utf16(text, true), 'utf-16be', 5)).text).toBe(text);
  });
});

describe('the strict decoder (what the second pass and the benchmark decode with)', () => {
  it('decodes every defined Windows-1252 byte as iconv-lite does', () => {
    const defined = [...Array(256).keys()].filter((b) => ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(b));
    const bytes = Buffer.from(defined);
    expect(decodeWindows1252(bytes)).toBe(iconv.decode(bytes, 'win1252'));
    expect(decodeWindows1252(Buffer.from([0x80, 0x84, 0x93, 0x9f]))).toBe('€„“Ÿ');
  });

  it.each([
    ['utf-8', Buffer.from([0x41, 0xfc, 0x42]), 1, 0xfc],
    ['utf-8', Buffer.from([0x41, 0xc3]), 1, 0xc3],
    ['utf-8', Buffer.from([0x41, 0xe2, 0x82, 0x41]), 1, 0xe2],
    ['windows-1252', Buffer.from([0x41, 0x42, 0x9d]), 2, 0x9d],
  ] as const)('%s ends with a DecodeError instead of U+FFFD', async (encoding, bytes, offset, byte) => {
    const decoder = decodeStream(encoding);
    let text = '';
    // One byte a write: the offending byte of a cut sequence is in an earlier chunk.
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    decoder.on('data', (part: string) => {
      text += part;
    });
    const error = await new Promise<unknown>((resolve) => {
      decoder.on('error', resolve);
      decoder.on('end', () => resolve(undefined));
      for (const chunk of chunks) decoder.write(chunk);
      decoder.end();
    });
    expect(error).toBeInstanceOf(DecodeError);
    expect(error).toMatchObject({ offset, byte });
    expect(text).not.toContain('\ufffd');
  });
});

describe('a file that changes between the check and the read', () => {
  it('ends the text with the encoding error (never U+FFFD) and the reader stops there', async () => {
    const path = write(`${HEADER}K1;plain\r\n`);
    const opened = await openCheckedText(path, 'auto');
    expect(opened.encoding.name).toBe('utf-8');
    // The export is rewritten (as Windows-1252) after the first pass found it valid UTF-8.
    writeFileSync(path, iconv.encode(`${HEADER}K1;plain\r\nK2;Dübel\r\n`, 'win1252'));
    const source = Feed.parse({
      name: 'f',
      accountId: 1,
      kind: 'transactions',
      source: { path: 'x', format: 'csv', delimiter: ';' },
      bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
      mapping: { externalId: 'ID', bookingDate: 'D', amount: 'A' },
    }).source;
    if (source.format !== 'csv') throw new Error('expected a csv source');
    const items = [];
    for await (const item of readCsv(path, opened.text, source).items) items.push(item);
    expect(JSON.stringify(items)).not.toContain('\ufffd');
    expect(items.at(-1)).toMatchObject({ kind: 'problem' });
    const failure = await opened.failure();
    expect(failure).toBeInstanceOf(EncodingError);
    expect(failure?.at).toEqual({ line: 3, offset: HEADER.length + 10 + 4 });
    expect(failure?.message).toContain('the file changed while it was read');
  });
});

describe('openRecords', () => {
  const feed = (encoding: SourceEncoding) =>
    Feed.parse({
      name: 'enc',
      accountId: 1001,
      kind: 'transactions',
      source: {
        path: 'x',
        format: 'csv',
        delimiter: ';',
        decimalSeparator: ',',
        dateFormat: 'dd.MM.yyyy',
        encoding,
      },
      bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
      mapping: { externalId: 'ID', bookingDate: 'Datum', amount: 'Betrag', purpose: 'Text' },
    });
  const bytes = iconv.encode('ID;Datum;Betrag;Text\r\nK1;05.02.2026;1,00;EDEKA DÖBEL\r\n', 'win1252');

  it('auto: maps the umlauts and reports the chosen encoding', async () => {
    const stream = openRecords(feed('auto'), write(bytes));
    const outcomes = [];
    for await (const outcome of recordsOf(stream)) outcomes.push(outcome);
    expect(outcomes).toMatchObject([{ kind: 'mapped', record: { payload: { purpose: 'EDEKA DÖBEL' } } }]);
    expect(await stream.encoding).toMatchObject({ name: 'windows-1252', chosenBy: 'auto' });
    expect(await stream.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a declared encoding that does not fit: the stream throws before yielding any record', async () => {
    const stream = openRecords(feed('utf-8'), write(bytes));
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const outcome of recordsOf(stream)) seen.push(outcome);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(EncodingError);
    expect(await stream.encoding).toBeUndefined();
    expect(await stream.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
