import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../../src/sources/glob.js';
import {
  isNotFound,
  isTransient,
  S3LocationError,
  s3Failure,
} from '../../../src/sources/locations/s3-errors.js';
import {
  copySource,
  listingPrefix,
  matchesStayInPrefixFolder,
  movedKey,
} from '../../../src/sources/locations/s3-keys.js';

describe('S3 keys as paths', () => {
  it('lists from the text before the first wildcard', () => {
    expect(listingPrefix('exports/acme/bank-*.csv')).toBe('exports/acme/bank-');
    expect(listingPrefix('exports/*/2026/?.csv')).toBe('exports/');
    expect(listingPrefix('exports/acme/a.csv')).toBe('exports/acme/a.csv');
    expect(listingPrefix('*.csv')).toBe('');
  });

  it('uses a delimiter only when no match can lie in a sub-folder of the prefix', () => {
    expect(matchesStayInPrefixFolder('exports/acme/*.csv')).toBe(true);
    expect(matchesStayInPrefixFolder('exports/acme/a.csv')).toBe(true);
    expect(matchesStayInPrefixFolder('exports/*/2026/*.csv')).toBe(false);
  });

  it('matches * and ? within one segment, literally elsewhere', () => {
    const match = globMatcher('exports/*/bank-?.csv');
    expect(match('exports/acme/bank-1.csv')).toBe(true);
    expect(match('exports/acme/bank-12.csv')).toBe(false);
    expect(match('exports/acme/sub/bank-1.csv')).toBe(false);
    expect(match('exports/bank-1.csv')).toBe(false);
    expect(match('exports//bank-1.csv')).toBe(true); // an empty "folder" name is a segment too
    expect(globMatcher('a/(x)+.csv')('a/(x)+.csv')).toBe(true);
    expect(globMatcher('a/*.csv')('a/line\nbreak.csv')).toBe(true);
    expect(globMatcher('a/*.csv')('a/x.csv.done')).toBe(false);
  });

  it("moves relative to the key's folder, or from the root with a leading /", () => {
    expect(movedKey('exports/acme/a.csv', 'processed')).toBe('exports/acme/processed/a.csv');
    expect(movedKey('exports/acme/a.csv', 'done/2026/')).toBe('exports/acme/done/2026/a.csv');
    expect(movedKey('a.csv', 'failed')).toBe('failed/a.csv');
    expect(movedKey('exports/acme/a.csv', '/archive/acme')).toBe('archive/acme/a.csv');
    expect(movedKey('exports/acme/a.csv', '/')).toBe('a.csv');
    expect(() => movedKey('exports/acme/a.csv', '')).toThrow(/leaves it where it is/);
    expect(() => movedKey('exports/acme/a.csv', '../x')).toThrow(/"\.\." is not allowed/);
  });

  it('URL-encodes the copy source per segment', () => {
    expect(copySource('b', 'a/Kontoauszug März+1.csv')).toBe('b/a/Kontoauszug%20M%C3%A4rz%2B1.csv');
  });
});

describe('S3 errors', () => {
  const sdkError = (name: string, status?: number) =>
    Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } });

  it('retries resets, 5xx and throttling; never a 4xx', () => {
    expect(isTransient(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isTransient(sdkError('InternalError', 500))).toBe(true);
    expect(isTransient(sdkError('SlowDown', 503))).toBe(true);
    expect(isTransient(sdkError('Whatever', 502))).toBe(true);
    expect(isTransient(sdkError('TooManyRequestsException', 429))).toBe(true);
    expect(isTransient(sdkError('NoSuchKey', 404))).toBe(false);
    expect(isTransient(sdkError('AccessDenied', 403))).toBe(false);
    expect(isTransient(sdkError('PreconditionFailed', 412))).toBe(false);
    expect(isTransient(new S3LocationError('CHANGED', 'k', 'changed'))).toBe(false);
  });

  it('names location, operation and key, and says what to check', () => {
    expect(isNotFound(sdkError('NotFound', 404))).toBe(true);
    expect(s3Failure('s3://b', 'GET', 'k.csv', sdkError('NoSuchKey', 404))).toMatchObject({
      code: 'NOT_FOUND',
      message: 's3://b: GET k.csv: no such key (NoSuchKey 404)',
    });
    expect(s3Failure('s3://b', 'LIST', 'x/*', sdkError('NoSuchBucket', 404))).toMatchObject({
      code: 'NO_BUCKET',
    });
    expect(s3Failure('s3://b', 'LIST', 'x/*', new Error('Region is missing')).message).toMatch(
      /set source\.location\.region/,
    );
    const long = sdkError('InternalError', 500);
    long.message = `${'x'.repeat(400)}\n<Error>...</Error>`;
    expect(s3Failure('s3://b', 'GET', 'k', long).message.length).toBeLessThan(400);
  });
});
