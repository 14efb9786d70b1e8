import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Feed } from '../../../src/config/feed.js';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { type CsvInference, inferCsv } from '../../../src/init/infer-csv.js';
import { readSample } from '../../../src/init/sample.js';
import { type Right, verdictsOf } from '../../support/init-verdicts.js';

/**
 * The engine on the CSV exports the project ships (config/feeds/demo), compared with the demo
 * feed written for each: nothing inferred `sure` may differ from what the feed says.
 */
const FEEDS = ['acme-bank', 'sparkasse', 'tenant-bank', 'tenant-invoices'];

/** The settings of a demo feed as the inference names them; a header pattern is right when it finds the same header. */
function rightOf(feed: Feed, inference: CsvInference): Right {
  const source = feed.source;
  if (source.format !== 'csv') throw new Error('a CSV feed');
  const twin = source.dateFormat.includes('yyyy')
    ? source.dateFormat.replace('yyyy', 'yy')
    : source.dateFormat.replace('yy', 'yyyy');
  const headerFound =
    source.headerPattern !== undefined &&
    new RegExp(source.headerPattern).test(inference.header.join(source.delimiter));
  const right: Right = {
    encoding: source.encoding === 'auto' ? [inference.encoding.value] : [source.encoding],
    delimiter: [source.delimiter],
    quote: [source.quote],
    skipLines: headerFound ? [inference.skipLines.value] : [source.skipLines],
    headerPattern: headerFound ? [inference.headerPattern?.value] : [],
    skipFooterLines: [source.skipFooterLines],
    skipRowsMatching: [source.skipRowsMatching],
    decimalSeparator: [source.decimalSeparator],
    // date.ts reads either year width under either token: a twin reads the same.
    dateFormat: [source.dateFormat, twin],
    kind: [feed.kind],
    exclude: [feed.exclude],
    'identity.externalId': [feed.mapping.externalId ?? null],
  };
  for (const [field, mapping] of Object.entries(feed.mapping)) {
    // A join of text columns: one of them alone is a right mapping too, if a poorer one.
    const parts = typeof mapping === 'object' && 'columns' in mapping ? mapping.columns : [];
    right[`mapping.${field}`] = [mapping, ...parts];
  }
  return right;
}

describe('init on the CSV exports the project ships', () => {
  for (const name of FEEDS)
    it(`${name}: nothing sure is wrong, and the amount, dates and format are right`, async () => {
      const { feed, sourceGlob } = await loadFeedFile(`config/feeds/demo/${name}.yaml`);
      const pattern = new RegExp(`^${basename(sourceGlob).replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
      const files = readdirSync(dirname(sourceGlob)).filter((f) => pattern.test(f));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const result = inferCsv(await readSample(join(dirname(sourceGlob), file)));
        if (!result.ok) throw new Error(result.problem);
        const verdicts = verdictsOf(result.inference, rightOf(feed, result.inference));
        expect(verdicts.filter(([, verdict]) => verdict === 'SURE AND WRONG')).toEqual([]);
        const of = (key: string) => verdicts.find(([k]) => k === key)?.[1];
        const amount = feed.kind === 'invoices' ? 'mapping.totalGrossAmount' : 'mapping.amount';
        for (const key of ['delimiter', 'decimalSeparator', 'dateFormat', amount, 'kind'])
          expect(of(key), `${name} ${key}`).toBe('right');
        expect(verdicts.filter(([, verdict]) => verdict !== 'right')).toEqual([]);
      }
    });
});
