import type { ContainerLab, RunOptions } from './lab.js';

// ═══════════════════════════════════════════════════════════════════════════════════════════════
// THE SWITCH. Where the workers read the exports from.
//
// false (now): SFTP locations are not in main yet, so each erp-bridge container (worker, enqueue)
//   gets a private copy of the exports by `podman cp` — still no volume in common, but the files
//   are not "only on the SFTP server". The SFTP server runs and is checked on its own.
// true (once `source.location: {type: sftp, ...}` and the workers' SFTP reading land in main,
//   issue 14 points 1-2): the exports exist only in the SFTP container; the feeds name it with its
//   pinned host key, the workers get the user key from a podman secret, and no erp-bridge container
//   holds an export file. Flip it, run `npm run test:containers`, and nothing else changes.
export const EXPORTS_ON_SFTP = false;
// ═══════════════════════════════════════════════════════════════════════════════════════════════

export const SFTP_PENDING =
  'PENDING until SFTP locations land in main (feed key source.location {type: sftp, host, port, user, ' +
  'privateKeyEnv, hostKey}; issue 14 points 1-2): exports live only on the SFTP server — flip ' +
  'EXPORTS_ON_SFTP in test/containers/support/export-source.ts';

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

/** Stand-in: every erp-bridge container holds a private copy at the same path; nothing is shared. */
export function privateCopies(lab: ContainerLab): ExportSource {
  const batches: string[] = [];
  const copyAll = async (container: string, dirs: readonly string[]) => {
    for (const dir of dirs) await lab.copyInto(container, dir, `${FEEDS_DIR}/exports`);
  };
  return {
    description: 'a private copy of the exports in each erp-bridge container (no shared volume)',
    sourceKeys: (feed) => [`path: exports/${feed}/tx-*.csv`],
    hostOptions: {},
    provision: (container) => copyAll(container, batches),
    async publish(batchDir, runningHosts) {
      batches.push(batchDir);
      for (const host of runningHosts) await copyAll(host, [batchDir]);
    },
  };
}

/** The real thing: exports only on the SFTP server; erp-bridge containers hold none. */
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
