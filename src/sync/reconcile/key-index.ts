import { keyHashes } from '../seen-ids.js';

/** What became of a source record's key while the service's records were read. */
export const STATE = { unmatched: 0, equal: 1, different: 2 } as const;
export type KeyState = (typeof STATE)[keyof typeof STATE];

const EMPTY = 0;
/** Set once the record's line is written: a second source record with the key is a duplicate. */
const REPORTED = 4;

/**
 * The source side of a reconcile, compact: per externalId (as a 64-bit hash, a false match about 1
 * in 10^19 per pair) the digest and field mask of its values, what the service's record was found
 * to be and its id. About 50 bytes per record at the table's load, not an object per record, so a
 * bank account of 1,000,000 transactions is compared in tens of MB (docs/reconcile.md).
 */
export class KeyIndex {
  #k1 = new Uint32Array(1024);
  #k2 = new Uint32Array(1024);
  #d1 = new Uint32Array(1024);
  #d2 = new Uint32Array(1024);
  #mask = new Uint32Array(1024);
  #state = new Uint8Array(1024);
  #held = new Float64Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The key's slot, added when absent; `added` false: the source had the key before. */
  add(key: string): { slot: number; added: boolean } {
    if ((this.#size + 1) * 10 > this.#k1.length * 7) this.#grow();
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
    this.#state[slot] = ((this.#state[slot] as number) & REPORTED) | state;
    this.#held[slot] = heldId;
  }

  heldId(slot: number): number | undefined {
    return this.matched(slot) ? this.#held[slot] : undefined;
  }

  /** Marks the slot's line written; false when it was already (a duplicate in the source). */
  report(slot: number): boolean {
    const state = this.#state[slot] as number;
    if (state & REPORTED) return false;
    this.#state[slot] = state | REPORTED;
    return true;
  }

  #probe(a: number, b: number): number {
    const last = this.#k1.length - 1;
    let slot = a & last;
    while (this.#k2[slot] !== EMPTY && (this.#k1[slot] !== a || this.#k2[slot] !== b)) slot = (slot + 1) & last;
    return slot;
  }

  #grow(): void {
    const old = {
      k1: this.#k1,
      k2: this.#k2,
      d1: this.#d1,
      d2: this.#d2,
      mask: this.#mask,
      state: this.#state,
      held: this.#held,
    };
    const n = old.k1.length * 2;
    this.#k1 = new Uint32Array(n);
    this.#k2 = new Uint32Array(n);
    this.#d1 = new Uint32Array(n);
    this.#d2 = new Uint32Array(n);
    this.#mask = new Uint32Array(n);
    this.#state = new Uint8Array(n);
    this.#held = new Float64Array(n);
    for (let i = 0; i < old.k1.length; i++) {
      if (old.k2[i] === EMPTY) continue;
      const slot = this.#probe(old.k1[i] as number, old.k2[i] as number);
      this.#k1[slot] = old.k1[i] as number;
      this.#k2[slot] = old.k2[i] as number;
      this.#d1[slot] = old.d1[i] as number;
      this.#d2[slot] = old.d2[i] as number;
      this.#mask[slot] = old.mask[i] as number;
      this.#state[slot] = old.state[i] as number;
      this.#held[slot] = old.held[i] as number;
    }
  }
}
