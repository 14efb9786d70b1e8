import { createHash } from 'node:crypto';
import { Client, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { secrets } from '../../logging/secret-scrubber.js';
import { type SftpLocationConfig, sftpLabel } from './location-config.js';
import { SftpError } from './sftp-errors.js';

/** The secrets the feed names, read from the environment. */
export interface SftpCredentials {
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

/**
 * Reads the variables the feed names. A named variable that is unset or empty is an error naming
 * the variable and the feed key (never a value); each value is registered with the scrubber, so an
 * echo of it in a server's message never reaches a log.
 */
export function sftpCredentials(config: SftpLocationConfig, env: NodeJS.ProcessEnv): SftpCredentials {
  const read = (key: 'passwordEnv' | 'privateKeyEnv' | 'passphraseEnv'): string | undefined => {
    const name = config[key];
    if (name === undefined) return undefined;
    const value = env[name];
    if (value === undefined || value === '') {
      throw new SftpError(
        'SECRET_MISSING',
        `source.location.${key} names the environment variable ${name}, which is ${value === undefined ? 'not set' : 'empty'}`,
      );
    }
    secrets.add(value);
    return value;
  };
  const credentials: SftpCredentials = {};
  const password = read('passwordEnv');
  const privateKey = read('privateKeyEnv');
  const passphrase = read('passphraseEnv');
  if (password !== undefined) credentials.password = password;
  if (privateKey !== undefined) credentials.privateKey = privateKey;
  if (passphrase !== undefined) credentials.passphrase = passphrase;
  return credentials;
}

/** `SHA256:` and the unpadded base64 of the key blob's sha256: what `ssh-keygen -lf` prints. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key type a host key blob starts with (`ssh-ed25519`, `ssh-rsa` ...), for messages. */
function keyType(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const length = key.readUInt32BE(0);
  return length > 0 && length < 64 && key.length >= 4 + length
    ? key.subarray(4, 4 + length).toString('latin1')
    : 'unknown';
}

/** Timing of the SSH connection; tests shorten the keepalive to see a hung server sooner. */
export interface SftpTuning {
  /** How long the TCP connect plus SSH handshake may take. */
  readyTimeoutMs: number;
  /** A keepalive every this many ms; `keepaliveCountMax` unanswered ones end the connection. */
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
}

export const DEFAULT_TUNING: SftpTuning = {
  readyTimeoutMs: 20_000,
  keepaliveIntervalMs: 10_000,
  keepaliveCountMax: 3,
};

/** One authenticated SSH connection with its SFTP channel. */
export interface SftpLink {
  sftp: SFTPWrapper;
  /** Whether it is gone (closed by either side, broken, or its SFTP channel ended). */
  isClosed(): boolean;
  /** Calls `listener` once when the connection is gone; returns the unsubscribe. */
  onClose(listener: () => void): () => void;
  /**
   * Ends the connection politely and resolves once it is gone; a server that does not answer
   * within `graceMs` (hung) has its socket destroyed.
   */
  end(graceMs?: number): Promise<void>;
}

/**
 * Connects, checking the server's host key against the pinned fingerprint before any credential is
 * sent, and opens the SFTP subsystem.
 */
export function connectSftp(
  config: SftpLocationConfig,
  credentials: SftpCredentials,
  tuning: SftpTuning,
): Promise<SftpLink> {
  const label = sftpLabel(config);
  return new Promise<SftpLink>((resolve, reject) => {
    const client = new Client();
    let seen: { fingerprint: string; type: string } | undefined;
    let settled = false;
    /** The link is of no use any more: the connection or its SFTP channel closed. */
    let gone = false;
    const closeListeners = new Set<() => void>();
    const markGone = () => {
      if (gone) return;
      gone = true;
      for (const listener of closeListeners) listener();
      closeListeners.clear();
    };
    /** The connection itself closed. */
    let ended = false;
    const endListeners = new Set<() => void>();
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(connectError(label, config, error, seen));
    };
    // An error after the connection is up also ends it ('close' follows); the link's users see
    // that through onClose and their own failed requests.
    client.on('error', fail);
    client.on('close', () => {
      ended = true;
      for (const listener of endListeners) listener();
      endListeners.clear();
      markGone();
      fail(new SftpError('CONNECTION_LOST', 'the connection closed during the handshake'));
    });
    client.on('ready', () => {
      client.sftp((error, sftp) => {
        if (error) return fail(error);
        // The server may end the SFTP subsystem and keep the connection: without its channel the
        // connection is of no use, and ending it tells every user of the link (onClose).
        sftp.once('close', () => {
          markGone();
          client.end();
        });
        settled = true;
        resolve({
          sftp,
          isClosed: () => gone,
          onClose: (listener) => {
            if (gone) queueMicrotask(listener);
            else closeListeners.add(listener);
            return () => closeListeners.delete(listener);
          },
          end: (graceMs = 2_000) => {
            if (ended) return Promise.resolve();
            const done = new Promise<void>((resolveEnd) => endListeners.add(resolveEnd));
            const timer = setTimeout(() => client.destroy(), graceMs);
            timer.unref();
            client.end();
            return done.finally(() => clearTimeout(timer));
          },
        });
      });
    });
    const options: ConnectConfig = {
      host: config.host,
      port: config.port,
      username: config.user,
      readyTimeout: tuning.readyTimeoutMs,
      keepaliveInterval: tuning.keepaliveIntervalMs,
      keepaliveCountMax: tuning.keepaliveCountMax,
      hostVerifier: (key: Buffer) => {
        seen = { fingerprint: hostKeyFingerprint(key), type: keyType(key) };
        return seen.fingerprint === config.hostKey;
      },
      ...credentials,
    };
    client.connect(options);
  });
}

function connectError(
  label: string,
  config: SftpLocationConfig,
  error: unknown,
  seen: { fingerprint: string; type: string } | undefined,
): unknown {
  if (seen && seen.fingerprint !== config.hostKey) {
    return new SftpError(
      'HOST_KEY_MISMATCH',
      `${label}: the server presented the ${seen.type} host key ${seen.fingerprint}, but the feed pins ` +
        `source.location.hostKey ${config.hostKey}; refused. If the key changed on purpose, pin the new ` +
        `one (ssh-keyscan -t ed25519 -p ${config.port} ${config.host} | ssh-keygen -lf -)`,
      { cause: error },
    );
  }
  const level = (error as { level?: unknown } | undefined)?.level;
  if (level === 'client-authentication') {
    const names = [config.passwordEnv, config.privateKeyEnv].filter((n) => n !== undefined);
    return new SftpError(
      'AUTH_FAILED',
      `${label}: the server refused the credentials from ${names.join(' and ')}`,
      { cause: error },
    );
  }
  return error;
}
