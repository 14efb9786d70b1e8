import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * JSON kept deflated in Redis (outcome batches, chunk records, reconcile lines): values that wait
 * there are mostly repeated keys and paths, which deflate shrinks several times over.
 */
export function deflatedJson(value: unknown, level?: number): Buffer {
  return deflateRawSync(JSON.stringify(value), level === undefined ? {} : { level });
}

/** The value `deflatedJson` stored (unvalidated: it crossed a process boundary). */
export function inflatedJson(packed: Buffer): unknown {
  return JSON.parse(inflateRawSync(packed).toString('utf8'));
}
