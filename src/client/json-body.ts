/** Items of a long array serialised (and encoded) together: small enough to stay cheap, see below. */
const SLICE = 100;

/** Room for the bytes of one slice; grown on demand, reused by every body (encoding is synchronous). */
let scratch = Buffer.allocUnsafeSlow(1 << 16);

/**
 * `JSON.stringify(value)` as UTF-8 bytes, the same bytes, with long lists of records (a bulk
 * create's 1000) serialised and encoded a slice of SLICE records at a time.
 * One JSON text of a whole bulk create (~240 KB, a two-byte string once one record holds a
 * character above U+00FF, e.g. "€") cost ~0.75 µs a record to turn into bytes; slices of 100
 * written into one reused buffer cost about half (micro-benchmark in .notes/perrecord.md), and no
 * string of the whole body is ever built. Only plain objects and arrays are taken apart, and only
 * at the top level: anything else is JSON.stringify's alone.
 */
export function jsonBytes(value: unknown): Buffer {
  if (Array.isArray(value) && isRecordList(value)) return Buffer.from(arrayBytes(value, 0));
  if (!isPlainObject(value)) return Buffer.from(JSON.stringify(value));
  let at = put('{', 0);
  let first = true;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const head = `${first ? '' : ','}${JSON.stringify(key)}:`;
    if (Array.isArray(item) && isRecordList(item)) {
      at = arrayBytes(item, put(head, at)).length;
    } else {
      const text = JSON.stringify(item);
      if (text === undefined) continue; // as JSON.stringify leaves out undefined and functions
      at = put(head + text, at);
    }
    first = false;
  }
  // The end first: a put may replace `scratch` (grown), and `scratch.subarray(...)` would read
  // the old one before evaluating its argument.
  const end = put('}', at);
  return Buffer.from(scratch.subarray(0, end));
}

/** Writes an array's JSON at `at` in the scratch buffer, a slice at a time; the bytes up to its end. */
function arrayBytes(items: readonly unknown[], at: number): Buffer {
  if (typeof (items as { toJSON?: unknown }).toJSON === 'function') {
    const end = put(JSON.stringify(items), at);
    return scratch.subarray(0, end);
  }
  let end = put('[', at);
  for (let from = 0; from < items.length; from += SLICE) {
    const text = JSON.stringify(items.slice(from, from + SLICE));
    // "[a,b]" without its brackets, after a comma from the second slice on.
    end = put(from === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`, end);
  }
  end = put(']', end);
  return scratch.subarray(0, end);
}

/** Writes `text` at `at`, growing the scratch buffer when it might not fit; the offset after it. */
function put(text: string, at: number): number {
  // A UTF-16 code unit never takes more than 3 bytes in UTF-8.
  if (at + text.length * 3 > scratch.length) {
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * scratch.length, at + text.length * 3));
    scratch.copy(grown, 0, 0, at);
    scratch = grown;
  }
  return at + scratch.write(text, at);
}

/** A list of records (objects) longer than a slice; a list of IDs is as cheap in one piece. */
function isRecordList(items: readonly unknown[]): boolean {
  return items.length > SLICE && typeof items[0] === 'object' && items[0] !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}
