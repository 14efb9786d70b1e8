/**
 * The values of one element read from a camt file (an entry `Ntry`, one of its transaction
 * details `TxDtls`, or a statement's own elements): text by the element's path below it, e.g.
 * `Refs/EndToEndId`, every occurrence in file order; an amount's currency as `path@Ccy` (`Amt@Ccy`).
 */
export class Captured {
  readonly values = new Map<string, string[]>();
  constructor(
    /** Line of the element's start tag. */
    readonly line: number,
  ) {}

  add(path: string, value: string): void {
    const list = this.values.get(path);
    if (list) list.push(value);
    else this.values.set(path, [value]);
  }

  /** The first value of the first path that has one, or '' (an empty cell). */
  first(...paths: readonly string[]): string {
    for (const path of paths) {
      const value = this.values.get(path)?.[0];
      if (value !== undefined) return value;
    }
    return '';
  }

  all(path: string): readonly string[] {
    return this.values.get(path) ?? [];
  }
}
