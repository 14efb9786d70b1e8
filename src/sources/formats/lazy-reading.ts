import type { FormatReading } from './source-format.js';

/**
 * A format's reading whose reader module loads on first use: a feed of one format never loads the
 * others' readers and their packages (an XML parser, a zip reader), which every start-up of a sync
 * would otherwise pay for. `has` says what the reading offers before it has loaded (open-records
 * tells a statement format by its `statements`).
 */
export function lazyReading(
  loading: Promise<FormatReading>,
  has: { statements?: true; sheet?: true },
): FormatReading {
  let loaded: FormatReading | undefined;
  const ready = loading.then((reading) => {
    loaded = reading;
    return reading;
  });
  return {
    columns: ready.then((reading) => reading.columns),
    batches: {
      async *[Symbol.asyncIterator]() {
        yield* (await ready).batches;
      },
    },
    // Asked once the batches ended, so the reader has loaded by then.
    ...(has.statements ? { statements: () => loaded?.statements?.() ?? [] } : {}),
    ...(has.sheet ? { sheet: () => loaded?.sheet?.() } : {}),
  };
}
