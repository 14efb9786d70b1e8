import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { checkExportOf } from '../../../src/fleet/feed-ref.js';
import { csvFeedWith } from '../../support/feed-text.js';

const feed = csvFeedWith;

describe('checkExportOf: a job or --file names only an export of its feed', () => {
  it('local: resolved against the feed folder, so `..` cannot step out', () => {
    const local = feed(['path: exports/*.csv']);
    expect(() => checkExportOf(local, '/feeds/exports/a.csv', ConfigError)).not.toThrow();
    expect(() => checkExportOf(local, '/feeds/exports/../secrets.csv', ConfigError)).toThrow(
      '/feeds/secrets.csv is not an export of feed f',
    );
  });

  it('remote: the server path matched as given; a `..` segment never matches', () => {
    const remote = feed(['path: /in/*/*.csv', 'location: { type: s3, bucket: exports }']);
    expect(() => checkExportOf(remote, '/in/acme/bank-1.csv', ConfigError)).not.toThrow();
    expect(() => checkExportOf(remote, '/in/../bank-1.csv', ConfigError)).toThrow(
      '/in/../bank-1.csv is not an export of feed f',
    );
    expect(() => checkExportOf(remote, '/in/acme/sub/bank-1.csv', ConfigError)).toThrow(ConfigError);
  });
});
