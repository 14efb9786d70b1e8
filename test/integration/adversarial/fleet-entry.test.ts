import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadFleetConfig } from '../../../src/fleet/fleet-config.js';
import { warnUnlessPersistent } from '../../../src/fleet/redis.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { captureLogs } from '../../support/log-capture.js';
import { findRedisServer, freePort, type RedisServer, spawnRedisServer } from '../../support/redis-server.js';
import { thrownBy } from '../../support/thrown.js';
import { cliProcesses } from '../../support/worker-process.js';

const cli = cliProcesses();
const bin = findRedisServer();
const servers: RedisServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

/** Only what a fleet command needs; nothing from the developer's shell. */
const env = (redisUrl: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  REDIS_URL: redisUrl,
  ERP_BRIDGE_ADMIN_PORT: 'off',
  PARTNER_API_URL: 'http://127.0.0.1:9/v2',
  PARTNER_AUTH_URL: 'http://127.0.0.1:9/token',
  PARTNER_CLIENT_ID: 'id',
  PARTNER_CLIENT_SECRET: 'secret',
});

describe('issue 11.7: the fleet entry points check their input', () => {
  it('enqueue --file refuses a file outside the feed source.path glob (exit 2, naming file and glob)', async () => {
    const exp = transactionsExport({ rows: 3, name: 'entry-glob' });
    // A closed port: the refusal comes before Redis is needed.
    const result = await cli.run(
      ['enqueue', exp.feedFile, '--file', '/etc/passwd'],
      env(`redis://127.0.0.1:${await freePort()}`),
    );
    expect(result.code, result.describe()).toBe(2);
    expect(result.stderr).toContain('/etc/passwd');
    expect(result.stderr).toContain('source.path glob');
    expect(result.stderr).toContain(`${exp.dir}/`);
  });

  it.each([
    ['enqueue', ['enqueue', 'FEED']],
    ['worker', ['worker']],
    ['scheduler', ['scheduler', '--once']],
    ['runs', ['runs']],
    ['report', ['report', 'some-run']],
  ])(
    '%s with Redis unreachable names the URL (password redacted) in one line after the Redis line and exits 3',
    async (_name, args) => {
      const exp = transactionsExport({ rows: 3, name: 'entry-unreachable' });
      const port = await freePort();
      const result = await cli.run(
        args.map((a) => (a === 'FEED' ? exp.feedFile : a)),
        env(`redis://user:s3cret-pw@127.0.0.1:${port}/0`),
      );
      expect(result.code, result.describe()).toBe(3);
      // First the Redis the command uses (issue 26.3), then one line saying it is unreachable.
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(2);
      expect(lines[0]).toBe(`erp-bridge: Redis redis://user:***@127.0.0.1:${port}/0 (REDIS_URL)`);
      expect(lines[1]).toContain(`REDIS_URL=redis://user:***@127.0.0.1:${port}/0`);
      expect(lines[1]).toContain('ECONNREFUSED');
      expect(result.stderr + result.stdout).not.toContain('s3cret-pw');
    },
    60_000,
  );
});

describe('issue 26.3: the fleet names its Redis', () => {
  it.each([
    ['enqueue', ['enqueue', 'FEED']],
    ['worker', ['worker']],
    ['scheduler', ['scheduler', '--once']],
    ['runs', ['runs']],
    ['report', ['report', 'some-run']],
    ['reconcile --fleet', ['reconcile', '--fleet', 'FEED']],
  ])(
    '%s without REDIS_URL exits 2 naming it (never a silent 127.0.0.1:6379)',
    async (_name, args) => {
      const exp = transactionsExport({ rows: 3, name: 'entry-no-redis-url' });
      const { REDIS_URL: _unset, ...withoutUrl } = env('redis://unused');
      const result = await cli.run(
        args.map((a) => (a === 'FEED' ? exp.feedFile : a)),
        { ...withoutUrl, ERP_BRIDGE_FEEDS_DIR: exp.dir },
      );
      expect(result.code, result.describe()).toBe(2);
      expect(result.stderr).toMatch(/REDIS_URL: .*not set|REDIS_URL.*required/i);
      expect(result.stderr).not.toContain('127.0.0.1:6379');
    },
    60_000,
  );

  it.skipIf(!bin)(
    'a command that reaches Redis prints the URL it uses, password redacted, as its first stderr line',
    async () => {
      const server = await spawnRedisServer(bin as string);
      servers.push(server);
      const admin = new Redis(server.url);
      await admin.call('ACL', 'SETUSER', 'fleet', 'on', '>R3d1s-pw', '~*', '&*', '+@all');
      admin.disconnect();
      const url = server.url.replace('redis://', 'redis://fleet:R3d1s-pw@');
      const result = await cli.run(['runs'], env(url));
      expect(result.code, result.describe()).toBe(0);
      const [first] = result.stderr.split('\n');
      expect(first).toBe(`erp-bridge: Redis ${url.replace('R3d1s-pw', '***')} (REDIS_URL)`);
      expect(result.stderr + result.stdout).not.toContain('R3d1s-pw');
    },
    60_000,
  );
});

describe('issue 18 case 12: REDIS_URL and Redis persistence', () => {
  it('refuses REDIS_URL with an empty port (it would silently mean 6379), naming the variable', () => {
    const error = thrownBy(ConfigError, () => loadFleetConfig({ REDIS_URL: 'redis://127.0.0.1:/0' }));
    expect(error.message).toMatch(/REDIS_URL: the port after ":" is empty/);
    const v6 = thrownBy(ConfigError, () => loadFleetConfig({ REDIS_URL: 'redis://user:pw@[::1]:/0' }));
    expect(v6.message).toMatch(/REDIS_URL: the port/);
    // Still accepted: an explicit port, no port at all, a password with a colon.
    for (const url of ['redis://127.0.0.1:6380/0', 'redis://127.0.0.1/0', 'redis://u:p:w@127.0.0.1:6379'])
      expect(loadFleetConfig({ REDIS_URL: url }).redisUrl).toBe(url);
  });

  it.skipIf(!bin)('warns once at start when Redis persists nothing; not when AOF is on', async () => {
    const volatile = await spawnRedisServer(bin as string);
    const durable = await spawnRedisServer(bin as string, { persistent: true });
    servers.push(volatile, durable);
    const off = new Redis(volatile.url);
    const on = new Redis(durable.url);
    try {
      const a = captureLogs();
      await warnUnlessPersistent(off, a.logger);
      expect(a.entries().map((e) => e.msg)).toEqual([expect.stringMatching(/Redis persistence is off/)]);
      const b = captureLogs();
      await warnUnlessPersistent(on, b.logger);
      expect(b.entries()).toEqual([]);
      // A managed Redis that refuses CONFIG: INFO still shows AOF off, and the warning says so.
      await off.call('ACL', 'SETUSER', 'limited', 'on', '>pw', '~*', '&*', '+@all', '-config');
      const limited = new Redis(volatile.url, { username: 'limited', password: 'pw' });
      try {
        const c = captureLogs();
        await warnUnlessPersistent(limited, c.logger);
        expect(c.entries().map((e) => e.msg)).toEqual([
          expect.stringMatching(/AOF is off.*CONFIG GET refused/),
        ]);
      } finally {
        limited.disconnect();
      }
    } finally {
      off.disconnect();
      on.disconnect();
    }
  });

  it.skipIf(!bin)(
    'the worker logs the persistence warning at start',
    async () => {
      const volatile = await spawnRedisServer(bin as string);
      servers.push(volatile);
      const [worker] = await cli.workers({ ...env(volatile.url), ERP_BRIDGE_QUEUE_PREFIX: 'persist' }, 1);
      expect(worker?.entries.some((e) => /Redis persistence is off/.test(String(e.msg)))).toBe(true);
    },
    90_000,
  );
});
