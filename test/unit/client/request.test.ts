import { describe, expect, it } from 'vitest';
import { buildQuery, buildUrl } from '../../../src/client/request.js';

describe('buildQuery', () => {
  it('serialises arrays as repeated parameters', () => {
    expect(buildQuery({ invoiceTypeFilter: 'SALE', externalId: ['a', 'b c', 'ä&='] })).toBe(
      '?invoiceTypeFilter=SALE&externalId=a&externalId=b+c&externalId=%C3%A4%26%3D',
    );
  });

  it('leaves out undefined and null, keeps 0 and false', () => {
    expect(buildQuery({ page: 0, pageSize: undefined, status: null, flag: false })).toBe(
      '?page=0&flag=false',
    );
  });

  it('is empty for no parameters', () => {
    expect(buildQuery(undefined)).toBe('');
    expect(buildQuery({})).toBe('');
  });

  it('refuses nested objects instead of sending [object Object]', () => {
    expect(() => buildQuery({ filter: { a: 1 } })).toThrow(/query parameter "filter"/);
  });
});

describe('buildUrl', () => {
  it('joins base URL, expanded path and query', () => {
    const url = buildUrl(
      'https://api.example.com/partner/v2/',
      '/invoices/{id}',
      { id: 42 },
      {
        invoiceTypeFilter: 'SALE',
      },
    );
    expect(url.href).toBe('https://api.example.com/partner/v2/invoices/42?invoiceTypeFilter=SALE');
  });

  it('encodes path parameters', () => {
    expect(buildUrl('http://h/v2', '/users/{userId}', { userId: 'a/b' }, undefined).pathname).toBe(
      '/v2/users/a%2Fb',
    );
  });

  it('throws when a path parameter is missing', () => {
    expect(() => buildUrl('http://h/v2', '/users/{userId}', {}, undefined)).toThrow(/userId/);
  });
});
