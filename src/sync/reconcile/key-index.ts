import { keyHashes } from '../seen-ids.js';

/** What became of a source record's key while the service's records were read. */
export const STATE = { unmatched: 0, equal: 1, different: 2 } as const;
export type KeyState = (typeof STATE)[keyof typeof STATE];

const EMPTY = 0;
/** Set once the record's line is written. */
const REPORTED = 4;
/** Set when the exports' second read meets the key: a second record with it is a duplicate. */
const REREAD = 8;

type Column = Uint32Array | Uint8Array | Float64Array;

/**
 * The source side of a reconcile, compact: per externalId (as a 64-bit hash, a false match about 1
 * in 10^19 per pair) the digest and field mask of its values, where it is (file, line), what the
 * service's record was found to be and its id. About 60 bytes per record at the table's load, not
 * an object per record, so a bank account of 1,000,000 transactions is compared in tens of MB.
 */
export class KeyIndex {
  #capacity = 1024;
  #k1 = new Uint32Array(this.#capacity);
  #k2 = new Uint32Array(this.#capacity);
  #d1 = new Uint32Array(this.#capacity);
  #d2 = new Uint32Array(this.#capacity);
  #mask = new Uint32Array(this.#capacity);
  #file = new Uint32Array(this.#capacity);
  #line = new Uint32Array(this.#capacity);
  #state = new Uint8Array(this.#capacity);
  #held = new Float64Array(this.#capacity);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The key's slot, added when absent; `added` false: the source had the key before. */
  add(key: string): { slot: number; added: boolean } {
    if ((this.#size + 1) * 10 > this.#capacity * 7) this.#grow();
    const [a, b] = keyHashes(key);
    const slot = this.#probe(a, b);
    if (this.#k2[slot] !== EMPTY) return { slot, added: false };
    this.#k1[slot] = a;
    this.#k2[slot] = b; // odd, never EMPTY (keyHashes)
    this.#size++;
    return { slot, added: true };
  }

  /** The key's slot, or -1. */
  find(key: string): number {
    const [a, b] = keyHashes(key);
    const slot = this.#probe(a, b);
    return this.#k2[slot] === EMPTY ? -1 : slot;
  }

  setValues(slot: number, mask: number, digest: readonly [number, number]): void {
    this.#mask[slot] = mask;
    this.#d1[slot] = digest[0];
    this.#d2[slot] = digest[1];
  }

  /** Where the record is: an index into the caller's list of files, and its line. */
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

  reported(slot: number): boolean {
    return ((this.#state[slot] as number) & REPORTED) !== 0;
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

  #probe(a: number, b: number): number {
    const last = this.#capacity - 1;
    let slot = a & last;
    while (this.#k2[slot] !== EMPTY && (this.#k1[slot] !== a || this.#k2[slot] !== b))
      slot = (slot + 1) & last;
    return slot;
  }

  #columns(): Column[] {
    return [
      this.#k1,
      this.#k2,
      this.#d1,
      this.#d2,
      this.#mask,
      this.#file,
      this.#line,
      this.#state,
      this.#held,
    ];
  }

  #grow(): void {
    const old = this.#columns();
    const [k1, k2] = old as [Uint32Array, Uint32Array];
    this.#capacity *= 2;
    const n = this.#capacity;
    this.#k1 = new Uint32Array(n);
    this.#k2 = new Uint32Array(n);
    this.#d1 = new Uint32Array(n);
    this.#d2 = new Uint32Array(n);
    this.#mask = new Uint32Array(n);
    this.#file = new Uint32Array(n);
    this.#line = new Uint32Array(n);
    this.#state = new Uint8Array(n);
    this.#held = new Float64Array(n);
    const fresh = this.#columns();
    for (let i = 0; i < k1.length; i++) {
      if (k2[i] === EMPTY) continue;
      const slot = this.#probe(k1[i] as number, k2[i] as number);
      for (let c = 0; c < fresh.length; c++) (fresh[c] as Column)[slot] = (old[c] as Column)[i] as number;
    }
  }
}
