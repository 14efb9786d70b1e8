import type { MappedRecord } from '../sources/record.js';

/** Where an externalId was first seen in the run, and whether a later record repeats it exactly. */
export interface FirstSeen {
  file: string;
  line: number;
  /** The later record's payload is identical to the first's (the same row in two overlapping files). */
  sameContent: boolean;
}

const FNV_PRIME = 0x01000193;

/** murmur3's fmix32: FNV's low bits alone index a power-of-two table poorly. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of `text`'s UTF-16 code units, continued from `h` (allocation-free). */
function fnvText(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

const SEED_A = 0x811c9dc5;
const SEED_B = 0x9747b28c;

/**
 * Two independent 32-bit FNV-1a hashes of a key, in one pass: 64 bits, a false match about 1 in
 * 10^19 per pair.
 */
export function keyHashes(key: string): [number, number] {
  pairOf(SEED_A, SEED_B, key);
  return [avalanche(pair[0] as number), (avalanche(pair[1] as number) | 1) >>> 0];
}

/** Where pairOf leaves the two hashes, read at once by its caller (hashing is synchronous). */
const pair = new Uint32Array(2);

/** Both FNV-1a hashes continued over `text` from `a` and `b`, into `pair` (not yet avalanched). */
function pairOf(a: number, b: number, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME);
    b = Math.imul(b ^ c, FNV_PRIME);
  }
  pair[0] = a;
  pair[1] = b;
}

/** The key hashes' state after `kind` and the separator, per kind (a run hashes one or two). */
const kindSeeds = new Map<string, readonly [number, number]>();

/**
 * keyHashes(runKey(kind, record)), the same two numbers, without building the key: the run key
 * text (a cons string V8 flattens to read it) and the result's array cost ~0.1 µs a record.
 */
export function runKeyHashes(kind: string, record: MappedRecord): [number, number] {
  let seeds = kindSeeds.get(kind);
  if (!seeds) {
    pairOf(SEED_A, SEED_B, `${kind}\u0000`);
    seeds = [pair[0] as number, pair[1] as number];
    kindSeeds.set(kind, seeds);
  }
  let a = seeds[0];
  let b = seeds[1];
  if (record.route !== undefined) {
    pairOf(a, b, `${record.route.account}\u0000`);
    a = pair[0] as number;
    b = pair[1] as number;
  }
  pairOf(a, b, record.externalId);
  return [avalanche(pair[0] as number), (avalanche(pair[1] as number) | 1) >>> 0];
}

const numberBits = new Float64Array(1);
const numberWords = new Uint32Array(numberBits.buffer);

/**
 * FNV-1a of a JSON-like value, walked in place: each value is tagged by its type and strings by
 * their length, so no two different payloads feed the same sequence (objects by key, in key order).
 */
function fnvValue(h: number, value: unknown): number {
  switch (typeof value) {
    case 'string':
      return fnvText(Math.imul(h ^ 0x73, FNV_PRIME) ^ value.length, value);
    case 'number':
      numberBits[0] = value;
      return (
        Math.imul(Math.imul(h ^ 0x6e, FNV_PRIME) ^ (numberWords[0] as number), FNV_PRIME) ^
        (numberWords[1] as number)
      );
    case 'boolean':
      return Math.imul(h ^ (value ? 0x74 : 0x66), FNV_PRIME);
    case 'object': {
      if (value === null) return Math.imul(h ^ 0x6c, FNV_PRIME);
      if (Array.isArray(value)) {
        h = Math.imul(h ^ 0x5b, FNV_PRIME) ^ value.length;
        for (const item of value) h = fnvValue(h, item);
        return h;
      }
      h = Math.imul(h ^ 0x7b, FNV_PRIME);
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined) continue; // as JSON leaves it out
        h = fnvValue(fnvText(h, key), item);
      }
      return Math.imul(h ^ 0x7d, FNV_PRIME);
    }
    default:
      return h; // undefined, functions: not part of a payload (JSON leaves them out)
  }
}

/**
 * 32-bit hash of a record's payload (what would be sent), to tell an identical repeat from a
 * conflict: walked without building the payload's JSON (that cost 1 µs a record).
 */
export function contentHash(record: MappedRecord): number {
  return avalanche(fnvValue(SEED_A, record.payload));
}

/**
 * The run-wide identity of a record: kind of target and externalId (one run writes one feed), and
 * for a record with a `route` of its own (a target other than the feed's) that route's account,
 * where the service keeps externalIds apart (two accounts may carry the same bank reference).
 */
export const runKey = (kind: string, record: MappedRecord): string =>
  record.route === undefined
    ? `${kind}\u0000${record.externalId}`
    : `${kind}\u0000${record.route.account}\u0000${record.externalId}`;

// An entry: key hash A, key hash B, file index, line, content hash: 20 bytes, in fixed pages that
// are never copied. The index (open addressing, linear probing, at most 3/4 full) holds entry
// number + 1 (0: an empty slot), 4 bytes a slot, and is the only part rebuilt when the table grows.
// A million records take 20 MB of entries and 8 MiB of index; growing past 1.5 million allocates
// a 16 MiB index beside the 8 MiB one, where one table of whole slots had 84 MB beside 42 MB
// (docs/once-only.md).
const FIELDS = 5;
const PAGE_BITS = 16;
const PAGE_ENTRIES = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_ENTRIES - 1;

/**
 * The externalIds one in-process run has seen, first occurrence wins. Keeps 64-bit hashes and the
 * first's file and line in flat typed arrays so a million records stay far below the RSS target;
 * file names are stored once each.
 */
export class SeenIds {
  #index: Uint32Array;
  #mask: number;
  readonly #pages: Uint32Array[] = [];
  #count = 0;
  readonly #files: string[] = [];
  readonly #fileIndex = new Map<string, number>();

  constructor(initialCapacity = 1 << 12) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.#index = new Uint32Array(capacity);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.#count;
  }

  /**
   * Records `record` under `key` unless the key was seen before on another line; returns that first
   * sighting then.
   */
  claim(key: string, record: MappedRecord): FirstSeen | undefined {
    const [a, b] = keyHashes(key);
    return this.#claim(a, b, record);
  }

  /** claim(runKey(kind, record), record), hashing the key without building it (runKeyHashes). */
  claimRun(kind: string, record: MappedRecord): FirstSeen | undefined {
    const [a, b] = runKeyHashes(kind, record);
    return this.#claim(a, b, record);
  }

  #claim(a: number, b: number, record: MappedRecord): FirstSeen | undefined {
    const content = contentHash(record);
    const index = this.#index;
    let i = a & this.#mask;
    for (; index[i] !== 0; i = (i + 1) & this.#mask) {
      const entry = (index[i] as number) - 1;
      const page = this.#pages[entry >>> PAGE_BITS] as Uint32Array;
      const at = (entry & PAGE_MASK) * FIELDS;
      if (page[at] !== a || page[at + 1] !== b) continue;
      // The same line claiming again (a replayed import) is still the first.
      const file = this.#files[page[at + 2] as number] as string;
      if (file === record.file && page[at + 3] === record.line) return undefined;
      return { file, line: page[at + 3] as number, sameContent: page[at + 4] === content };
    }
    const entry = this.#count++;
    if ((entry & PAGE_MASK) === 0) this.#pages.push(new Uint32Array(PAGE_ENTRIES * FIELDS));
    const page = this.#pages[entry >>> PAGE_BITS] as Uint32Array;
    const at = (entry & PAGE_MASK) * FIELDS;
    page[at] = a;
    page[at + 1] = b;
    page[at + 2] = this.#fileOf(record.file);
    page[at + 3] = record.line;
    page[at + 4] = content;
    index[i] = entry + 1;
    if (this.#count * 4 > (this.#mask + 1) * 3) this.#grow();
    return undefined;
  }

  #fileOf(file: string): number {
    let index = this.#fileIndex.get(file);
    if (index === undefined) {
      index = this.#files.length;
      this.#files.push(file);
      this.#fileIndex.set(file, index);
    }
    return index;
  }

  /** Doubles the index and places every entry again by its hash A; the entries stay where they are. */
  #grow(): void {
    const index = new Uint32Array(this.#index.length * 2);
    const mask = index.length - 1;
    for (let entry = 0; entry < this.#count; entry++) {
      const page = this.#pages[entry >>> PAGE_BITS] as Uint32Array;
      let i = (page[(entry & PAGE_MASK) * FIELDS] as number) & mask;
      while (index[i] !== 0) i = (i + 1) & mask;
      index[i] = entry + 1;
    }
    this.#index = index;
    this.#mask = mask;
  }
}
