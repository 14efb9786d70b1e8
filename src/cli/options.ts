import { InvalidArgumentError } from 'commander';

/** A whole number >= 1 (counts, limits, concurrency). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return n;
}
