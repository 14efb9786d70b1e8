import { describe, expect, it } from 'vitest';
import { parseLocationFlag } from '../../../src/init/location-flag.js';

describe('init --location for a database', () => {
  it('reads a bare postgres or mysql as the database whose URL is in ERP_DB_URL', () => {
    for (const type of ['postgres', 'mysql'])
      expect(parseLocationFlag(type)).toEqual({
        ok: true,
        given: { type, urlEnv: 'ERP_DB_URL' },
        database: { type, urlEnv: 'ERP_DB_URL' },
      });
  });

  it('takes the flow form naming another variable, and refuses one without urlEnv naming the key', () => {
    expect(parseLocationFlag('{type: postgres, urlEnv: ACME_DB_URL}')).toMatchObject({
      ok: true,
      database: { type: 'postgres', urlEnv: 'ACME_DB_URL' },
    });
    const refused = parseLocationFlag('{type: mysql}');
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.problem).toContain('--location.urlEnv');
  });

  it('keeps a bare file location type a file location', () => {
    expect(parseLocationFlag('local')).toMatchObject({ ok: true, config: { type: 'local' } });
  });
});
