import type { MappedRecord } from '../sources/record.js';

/** Where an externalId was first seen in the run, and whether a later record repeats it exactly. */
export interface FirstSeen {
  file: string;
  line: number;
  /** The later record's payload is identical to the first's (the same row in two overlapping files). */
  sameContent: boolean;
}

/** FNV-1a over the UTF-16 code units of `text`, 32 bits, from `seed`. Fast and allocation-free. */
function fnv1a(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32): FNV's low bits alone index a power-of-two table poorly.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

const SEED_A = 0x811c9dc5;
const SEED_B = 0x9747b28c;

/** Two independent 32-bit hashes of a key: 64 bits, a false match about 1 in 10^19 per pair. */
export function keyHashes(key: string): [number, number] {
  return [fnv1a(key, SEED_A), (fnv1a(key, SEED_B) | 1) >>> 0];
}

/** 32-bit hash of a record's payload (what would be sent), to tell an identical repeat from a conflict. */
export function contentHash(record: MappedRecord): number {
  return fnv1a(JSON.stringify(record.payload), SEED_A);
}

/**
 * The run-wide identity of a record: kind of target and externalId (one run writes one feed), and
 * for a record routed to its statement's own bank account that account, where the service keeps
 * externalIds apart (two accounts' statements may carry the same bank reference).
 */
export const runKey = (kind: string, record: MappedRecord): string =>
  record.route === undefined
    ? `${kind}\u0000${record.externalId}`
    : `${kind}\u0000${record.route.account}\u0000${record.externalId}`;

// Slot layout in one Uint32Array: key hash A, key hash B (never 0: marks a used slot), file index,
// line, content hash. 20 bytes a slot, at most 75 % full: 40 MiB for a million records (measured,
// docs/once-only.md), instead of well over 100 MB for a Map of strings to objects.
const FIELDS = 5;

/**
 * The externalIds one in-process run has seen, first occurrence wins. Keeps 64-bit hashes and the
 * first's file and line in a flat typed array (open addressing, linear probing) so a million
 * records stay far below the RSS target; file names are stored once each.
 */
export class SeenIds {
  #slots: Uint32Array;
  #mask: number;
  #count = 0;
  readonly #files: string[] = [];
  readonly #fileIndex = new Map<string, number>();

  constructor(initialCapacity = 1 << 12) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.#slots = new Uint32Array(capacity * FIELDS);
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
    const content = contentHash(record);
    const slots = this.#slots;
    for (let i = a & this.#mask; ; i = (i + 1) & this.#mask) {
      const at = i * FIELDS;
      const used = slots[at + 1] !== 0;
      if (!used) break;
      if (slots[at] === a && slots[at + 1] === b) {
        // The same line claiming again (a replayed import) is still the first.
        const file = this.#files[slots[at + 2] as number];
        if (file === record.file && slots[at + 3] === record.line) return undefined;
        return {
          file: file as string,
          line: slots[at + 3] as number,
          sameContent: slots[at + 4] === content,
        };
      }
    }
    this.#insert(a, b, this.#fileOf(record.file), record.line, content);
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

  #insert(a: number, b: number, file: number, line: number, content: number): void {
    if ((this.#count + 1) * 4 > (this.#mask + 1) * 3) this.#grow();
    const slots = this.#slots;
    let i = a & this.#mask;
    while (slots[i * FIELDS + 1] !== 0) i = (i + 1) & this.#mask;
    slots.set([a, b, file, line, content], i * FIELDS);
    this.#count++;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    this.#mask = this.#mask * 2 + 1;
    this.#count = 0;
    for (let at = 0; at < old.length; at += FIELDS) {
      if (old[at + 1] === 0) continue;
      this.#insert(
        old[at] as number,
        old[at + 1] as number,
        old[at + 2] as number,
        old[at + 3] as number,
        old[at + 4] as number,
      );
    }
  }
}
