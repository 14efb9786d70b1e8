import type { ContainerLab, RunOptions } from './lab.js';

/**
 * The feed directory in an erp-bridge container: the image's own (it exists, and `podman cp` copies
 * into existing folders only). In the stand-in mode the exports are in its `exports/` folder.
 */
export const FEEDS_DIR = '/app/config/feeds';
/** The exports' folder on the SFTP server (the lab user's home is /home/erp). */
export const SFTP_EXPORTS_DIR = '/home/erp/exports';
/** The environment variable a worker reads the SFTP user's private key from (privateKeyEnv). */
export const SFTP_KEY_ENV = 'LAB_SFTP_PRIVATE_KEY';

/** The SFTP server as the feeds pin it. */
export interface SftpServer {
  /** Its host name on the lab network. */
  host: string;
  /** `SHA256:...` of its host key, as `ssh-keygen -lf` prints it. */
  hostKey: string;
  /** The podman secret holding the lab user's private key. */
  keySecret: string;
  container: string;
}

/** How export files reach the fleet, and how a feed says where they are. */
export interface ExportSource {
  readonly description: string;
  /** The lines under a feed's `source:` before its format keys. */
  sourceKeys(feed: string): string[];
  /** podman options for every container that runs erp-bridge. */
  readonly hostOptions: RunOptions;
  /** Before an erp-bridge container starts: what it must hold of the exports published so far. */
  provision(container: string): Promise<void>;
  /** A new batch (a host folder of `<feed>/<file>`) goes where the fleet reads it. */
  publish(batchDir: string, runningHosts: readonly string[]): Promise<void>;
}

/** The exports live only on the SFTP server; erp-bridge containers hold none (no volume in common). */
export function onSftp(lab: ContainerLab, server: SftpServer): ExportSource {
  return {
    description: `only on the SFTP server (${server.host}, host key ${server.hostKey})`,
    sourceKeys: (feed) => [
      `location: { type: sftp, host: ${server.host}, port: 22, user: erp, privateKeyEnv: ${SFTP_KEY_ENV}, hostKey: "${server.hostKey}" }`,
      `path: ${SFTP_EXPORTS_DIR}/${feed}/tx-*.csv`,
    ],
    hostOptions: { secretEnv: { [server.keySecret]: SFTP_KEY_ENV } },
    provision: async () => {},
    async publish(batchDir) {
      await lab.copyInto(server.container, batchDir, SFTP_EXPORTS_DIR);
      // podman cp keeps the host's owner (root); the lab user must be able to read and move them.
      await lab.exec(server.container, ['chown', '-R', 'erp:erp', SFTP_EXPORTS_DIR]);
    },
  };
}
