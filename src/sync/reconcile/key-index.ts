import { keyHashes } from '../seen-ids.js';

/** What became of a source record's key while the service's records were read. */
export const STATE = { unmatched: 0, equal: 1, different: 2 } as const;
export type KeyState = (typeof STATE)[keyof typeof STATE];

/** Set once the record's line is written. */
const REPORTED = 4;
/** Set when the exports' second read meets the key: a second record with it is a duplicate. */
const REREAD = 8;

type Column = Uint32Array | Uint16Array | Uint8Array | Float64Array;

/**
 * The source side of a reconcile, compact: per externalId (as a 64-bit hash, a false match about 1
 * in 10^19 per pair) the digest and field mask of its values, where it is (file, line), what the
 * service's record was found to be and its id, in typed arrays: an open-addressing table of entry
 * numbers (4 bytes a slot) over dense columns (35 bytes an entry), not an object per record. A
 * "slot" below is an entry's number. 44 MB for 1,000,000 keys (measured), the columns growing by
 * half as keys come (the old and new columns both held while one grows).
 */
export class KeyIndex {
  #table = new Int32Array(2048);
  #entries = 1024;
  #k1 = new Uint32Array(this.#entries);
  #k2 = new Uint32Array(this.#entries);
  #d1 = new Uint32Array(this.#entries);
  #d2 = new Uint32Array(this.#entries);
  #mask = new Uint32Array(this.#entries);
  #file = new Uint16Array(this.#entries);
  #line = new Uint32Array(this.#entries);
  #state = new Uint8Array(this.#entries);
  #held = new Float64Array(this.#entries);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The key's slot, added when absent; `added` false: the source had the key before. */
  add(key: string): { slot: number; added: boolean } {
    if ((this.#size + 1) * 10 > this.#table.length * 7) this.#rehash(this.#table.length * 2);
    const [a, b] = keyHashes(key);
    const at = this.#probe(a, b);
    const found = (this.#table[at] as number) - 1;
    if (found >= 0) return { slot: found, added: false };
    if (this.#size === this.#entries) this.#growEntries();
    const slot = this.#size++;
    this.#k1[slot] = a;
    this.#k2[slot] = b;
    this.#table[at] = slot + 1;
    return { slot, added: true };
  }

  /** The key's slot, or -1. */
  find(key: string): number {
    const [a, b] = keyHashes(key);
    return (this.#table[this.#probe(a, b)] as number) - 1;
  }

  setValues(slot: number, mask: number, digest: readonly [number, number]): void {
    this.#mask[slot] = mask;
    this.#d1[slot] = digest[0];
    this.#d2[slot] = digest[1];
  }

  /** Where the record is: an index into the caller's list of files (< 65,536), and its line. */
  setPlace(slot: number, file: number, line: number): void {
    this.#file[slot] = file;
    this.#line[slot] = line;
  }

  place(slot: number): { file: number; line: number } {
    return { file: this.#file[slot] as number, line: this.#line[slot] as number };
  }

  mask(slot: number): number {
    return this.#mask[slot] as number;
  }

  sameDigest(slot: number, digest: readonly [number, number]): boolean {
    return this.#d1[slot] === digest[0] && this.#d2[slot] === digest[1];
  }

  state(slot: number): KeyState {
    return ((this.#state[slot] as number) & 3) as KeyState;
  }

  /** Whether the service's record of the key was seen already (a second one is an extra). */
  matched(slot: number): boolean {
    return this.state(slot) !== STATE.unmatched;
  }

  match(slot: number, state: KeyState, heldId: number): void {
    this.#state[slot] = ((this.#state[slot] as number) & ~3) | state;
    this.#held[slot] = heldId;
  }

  heldId(slot: number): number | undefined {
    return this.matched(slot) ? this.#held[slot] : undefined;
  }

  /** Marks the slot's line written; false when it was already. */
  report(slot: number): boolean {
    return this.#flag(slot, REPORTED);
  }

  /** Marks the key met by the second read; false when it was already (a duplicate in the source). */
  reread(slot: number): boolean {
    return this.#flag(slot, REREAD);
  }

  #flag(slot: number, bit: number): boolean {
    const state = this.#state[slot] as number;
    if (state & bit) return false;
    this.#state[slot] = state | bit;
    return true;
  }

  /** The table position of the key: its entry's, or the empty one where it would go. */
  #probe(a: number, b: number): number {
    const last = this.#table.length - 1;
    let at = a & last;
    for (;;) {
      const entry = (this.#table[at] as number) - 1;
      if (entry < 0 || (this.#k1[entry] === a && this.#k2[entry] === b)) return at;
      at = (at + 1) & last;
    }
  }

  #rehash(size: number): void {
    this.#table = new Int32Array(size);
    for (let entry = 0; entry < this.#size; entry++)
      this.#table[this.#probe(this.#k1[entry] as number, this.#k2[entry] as number)] = entry + 1;
  }

  /** The columns 1.5 times as long, their entries kept. */
  #growEntries(): void {
    this.#entries = Math.ceil(this.#entries * 1.5);
    const grown = <C extends Column>(old: C, make: (n: number) => C): C => {
      const next = make(this.#entries);
      next.set(old as never);
      return next;
    };
    this.#k1 = grown(this.#k1, (n) => new Uint32Array(n));
    this.#k2 = grown(this.#k2, (n) => new Uint32Array(n));
    this.#d1 = grown(this.#d1, (n) => new Uint32Array(n));
    this.#d2 = grown(this.#d2, (n) => new Uint32Array(n));
    this.#mask = grown(this.#mask, (n) => new Uint32Array(n));
    this.#file = grown(this.#file, (n) => new Uint16Array(n));
    this.#line = grown(this.#line, (n) => new Uint32Array(n));
    this.#state = grown(this.#state, (n) => new Uint8Array(n));
    this.#held = grown(this.#held, (n) => new Float64Array(n));
  }
}
