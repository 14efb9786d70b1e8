import { describe, expect, it } from 'vitest';
import { fileError, isTransientSftpError, SftpError } from '../../../src/sources/locations/sftp-errors.js';

const withProps = (message: string, props: Record<string, unknown>) =>
  Object.assign(new Error(message), props);

describe('isTransientSftpError', () => {
  it('retries what a new connection can cure', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']) {
      expect(isTransientSftpError(withProps('socket', { code }))).toBe(true);
    }
    expect(isTransientSftpError(withProps('Keepalive timeout', { level: 'client-timeout' }))).toBe(true);
    expect(isTransientSftpError(withProps('read ECONNRESET', { level: 'client-socket' }))).toBe(true);
    expect(isTransientSftpError(new Error('No response from server'))).toBe(true);
    expect(isTransientSftpError(withProps('Connection lost', { code: 7 }))).toBe(true);
    expect(isTransientSftpError(new SftpError('CONNECTION_LOST', 'closed'))).toBe(true);
  });

  it('does not retry what would only fail again', () => {
    expect(isTransientSftpError(withProps('No such file', { code: 2 }))).toBe(false);
    expect(isTransientSftpError(withProps('Permission denied', { code: 3 }))).toBe(false);
    expect(isTransientSftpError(withProps('Failure', { code: 4 }))).toBe(false);
    expect(
      isTransientSftpError(
        withProps('All configured authentication methods failed', { level: 'client-authentication' }),
      ),
    ).toBe(false);
    expect(
      isTransientSftpError(withProps('getaddrinfo ENOTFOUND', { code: 'ENOTFOUND', level: 'client-dns' })),
    ).toBe(false);
    expect(isTransientSftpError(new SftpError('HOST_KEY_MISMATCH', 'refused'))).toBe(false);
    expect(isTransientSftpError('ECONNRESET')).toBe(false);
  });
});

describe('fileError', () => {
  it('names the location, the operation and the path, with a stable code', () => {
    const error = fileError(
      'sftp://u@h:22',
      'read',
      '/in/a.csv',
      withProps('Permission denied', { code: 3 }),
    );
    expect(error).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'sftp://u@h:22: read /in/a.csv: Permission denied',
    });
    expect(fileError('l', 'stat', '/x', withProps('No such file', { code: 2 })).code).toBe('NO_SUCH_FILE');
    expect(fileError('l', 'stat', '/x', withProps('reset', { code: 'ECONNRESET' })).code).toBe(
      'CONNECTION_LOST',
    );
    expect(fileError('l', 'stat', '/x', withProps('odd', { code: 4 })).code).toBe('SFTP_FAILED');
  });
});
