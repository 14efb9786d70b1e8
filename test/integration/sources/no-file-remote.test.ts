import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Location } from '../../../src/sources/locations/location.js';
import { explainNoFile } from '../../../src/sources/locations/no-file.js';
import { openS3Location } from '../../../src/sources/locations/s3.js';
import { openSftpLocation } from '../../../src/sources/locations/sftp.js';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3Server } from '../../support/s3-server.js';
import { type SshdServer, sshdMissing, startSshdServer } from '../../support/sshd-server.js';

/**
 * Issue 26.2 on the remote locations: what a glob that matched nothing is compared with, against
 * real servers (s3rver, OpenSSH's sshd). On S3 a "folder" is a key prefix: a prefix with no object
 * under it is an empty folder, never a missing one (docs/locations.md).
 */
describe('no file on S3', () => {
  let server: S3TestServer;
  let s3: Location;
  beforeAll(async () => {
    server = await startS3Server();
    vi.stubEnv('AWS_ACCESS_KEY_ID', S3RVER_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3RVER_CREDENTIALS.secretAccessKey);
    s3 = openS3Location({
      type: 's3',
      bucket: server.bucket,
      endpoint: server.endpoint,
      forcePathStyle: true,
    });
    for (const key of [
      'exports/acme/Bank_1.csv',
      'exports/acme/readme.txt',
      'exports/acme/processed/old.csv',
      'banks.csv',
    ])
      await server.put(key, 'x');
  });
  afterAll(async () => {
    await s3?.close();
    vi.unstubAllEnvs();
    await server?.stop();
  });

  it('names the glob and the nearest keys under its prefix (sub-prefixes with a /)', async () => {
    const found = await explainNoFile(s3, 'exports/acme/bank-*.csv', false);
    expect(found.stop).toBe('NO_EXPORT_FILE');
    expect(found.message).toContain('no export file matches exports/acme/bank-*.csv');
    expect(found.message).toContain(
      `nearest names in exports/acme on ${s3.label}: Bank_1.csv, readme.txt, processed/`,
    );
  });

  it('a prefix with no object under it is empty, not missing: allowNoFiles lets it pass', async () => {
    const strict = await explainNoFile(s3, 'exprots/acme/bank-*.csv', false);
    expect(strict).toMatchObject({ stop: 'NO_EXPORT_FILE' });
    expect(strict.message).toContain(`exprots/acme on ${s3.label} is empty`);
    expect(await explainNoFile(s3, 'exprots/acme/bank-*.csv', true)).toMatchObject({ stop: false });
    // The bucket's root is the empty prefix. (s3rver leaves out a root "folder" whose objects lie
    // two levels down, exports/ here; S3 lists it: so only the root's own object is asserted.)
    expect((await explainNoFile(s3, 'bank-*.csv', false)).message).toContain(
      `nearest names in the bucket root on ${s3.label}: banks.csv`,
    );
  });
});

const skip = sshdMissing();
describe.skipIf(skip)(`no file on SFTP${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: SshdServer;
  let sftp: Location;
  beforeAll(async () => {
    server = await startSshdServer();
    mkdirSync(join(server.root, 'acme', 'archive'), { recursive: true });
    writeFileSync(join(server.root, 'acme', 'Bank_1.csv'), 'x');
    sftp = openSftpLocation(
      {
        type: 'sftp',
        host: server.host,
        port: server.port,
        user: server.user,
        privateKeyEnv: 'NO_FILE_KEY',
        hostKey: server.hostKey,
      },
      { NO_FILE_KEY: server.privateKey },
    );
  });
  afterAll(async () => {
    await sftp?.close();
    await server?.stop();
  });

  it('a folder that does not exist stops even with allowNoFiles; a glob matching nothing names the nearest', async () => {
    const { root } = server;
    for (const allow of [false, true])
      expect(await explainNoFile(sftp, `${root}/acme/missing/bank-*.csv`, allow)).toMatchObject({
        stop: 'SOURCE_FOLDER_MISSING',
        message: expect.stringContaining(
          `source folder ${root}/acme/missing on ${sftp.label} does not exist`,
        ),
      });
    const typo = await explainNoFile(sftp, `${root}/acme/bank-*.csv`, false);
    expect(typo.stop).toBe('NO_EXPORT_FILE');
    expect(typo.message).toContain(`nearest names in ${root}/acme on ${sftp.label}: Bank_1.csv, archive/`);
  });
});
