import { decodeWindows1252 } from '../sources/decode.js';
import {
  bomOf,
  ENCODING_LABEL,
  firstNonAscii,
  firstUndefinedWindows1252,
  hex,
  type TextEncoding,
  Utf8Check,
  Utf16Check,
} from '../sources/text-encoding.js';
import { ask, guess, type Inferred, sure } from './inferred.js';
import type { ExportSample } from './sample.js';

/** The encoding of a sample and its text (byte-order mark stripped; a sequence cut by the cap left out). */
export interface DecodedSample {
  encoding: Inferred<TextEncoding>;
  text: string;
}

/**
 * The encoding as `source.encoding: auto` would choose it (encoding-inspect.ts: a byte-order mark,
 * else valid UTF-8, else Windows-1252), from the sample with the same checks. Undefined when the
 * sample is none of them (another code page): init cannot read such an export.
 */
export function decodeSample(sample: ExportSample): DecodedSample | undefined {
  const { bytes } = sample;
  const bom = bomOf(bytes);
  if (bom && bom.encoding !== 'utf-8') {
    const check = new Utf16Check(bom.encoding === 'utf-16be');
    const text = check.push(bytes);
    if (text === undefined) return undefined;
    return {
      encoding: sure(bom.encoding, `${ENCODING_LABEL[bom.encoding]} byte-order mark`),
      text: stripBom(text),
    };
  }
  const utf8 = new Utf8Check();
  // push() keeps a sequence the cap cut in two for the next chunk: not a fault of the file.
  const valid = utf8.push(bytes);
  const whole = valid !== undefined && (!sample.complete || utf8.end());
  if (whole) {
    const text = stripBom(valid.toString('utf8'));
    if (bom) return { encoding: sure('utf-8', 'UTF-8 byte-order mark'), text };
    if (firstNonAscii(bytes) !== -1)
      return { encoding: sure('utf-8', 'valid UTF-8 with non-ASCII text'), text };
    return {
      encoding: guess(
        'utf-8',
        sample.complete
          ? 'ASCII only: any of the encodings reads it the same'
          : `ASCII only in the first ${bytes.length} bytes: \`auto\` decides per file if later text is not UTF-8`,
      ),
      text,
    };
  }
  if (bom) return undefined;
  const at = utf8.invalidAt ?? 0;
  if (firstUndefinedWindows1252(bytes) !== -1) return undefined;
  return {
    encoding: sure(
      'windows-1252',
      `not valid UTF-8 (byte ${hex(bytes[at])} at byte offset ${at}); Windows-1252 reads ISO-8859-1 text the same except bytes 0x80-0x9F`,
    ),
    text: decodeWindows1252(bytes),
  };
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * A sample `encoding: auto` refuses (another code page, e.g. 852), read for its structure only:
 * ISO-8859-1 maps every byte, so a statement's tags and an XML's markup, all ASCII, read right
 * while its letters may not. The encoding is asked: the person names the code page.
 */
export function undecodedSample(sample: ExportSample): DecodedSample {
  return {
    encoding: ask(
      'neither UTF-8, UTF-16 nor Windows-1252: `encoding: auto` refuses the file; name its code page (iso-8859-1 reads every byte, though letters of another code page come out wrong)',
      ['iso-8859-1'],
    ),
    text: sample.bytes.toString('latin1'),
  };
}
