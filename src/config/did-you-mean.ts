/** Edit distance (insert, delete, substitute, swap of neighbours) between two short names. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * Names in `present` that look like a misspelling of `wanted` (a typo of one or two letters, or a
 * different case): a user who set PARTNER_API_ULR learns why PARTNER_API_URL is "missing".
 */
export function lookalikes(wanted: string, present: readonly string[]): string[] {
  return present.filter(
    (name) =>
      name !== wanted &&
      (name.toUpperCase() === wanted.toUpperCase() || editDistance(name.toUpperCase(), wanted) <= 2),
  );
}
