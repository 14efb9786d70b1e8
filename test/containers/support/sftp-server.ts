import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SftpServer } from './export-source.js';
import type { ContainerLab } from './lab.js';
import { podmanOk, pollUntil } from './podman.js';

export const SFTP_IMAGE = 'localhost/erp-bridge-lab-sftp:local';
const context = join(dirname(fileURLToPath(import.meta.url)), '../sftp');

/**
 * Builds the lab's SFTP image (Debian's openssh-server, test/containers/sftp) and starts it as
 * `sftp` on the lab network. Its entrypoint makes a fresh host key and user key pair on each start;
 * this reads the host key's fingerprint (what a feed pins) and puts the private key into a podman
 * secret (what a worker gets in its environment), so the key never touches the host's disk.
 */
export async function startSftpServer(lab: ContainerLab): Promise<SftpServer> {
  await podmanOk(['build', '--format', 'docker', '-t', SFTP_IMAGE, context]);
  const container = await lab.create('sftp', SFTP_IMAGE);
  await lab.start(container);
  await pollUntil(
    'sshd to listen',
    60_000,
    async () => ((await lab.logs(container)).includes('Server listening') ? true : undefined),
    () => 'sshd did not log "Server listening"',
  );
  const printed = await lab.exec(container, ['ssh-keygen', '-lf', '/etc/ssh/ssh_host_ed25519_key.pub']);
  const hostKey = /SHA256:[A-Za-z0-9+/]{43}/.exec(printed)?.[0];
  if (hostKey === undefined) throw new Error(`no SHA256 fingerprint in ssh-keygen's output: ${printed}`);
  const keySecret = await lab.secret('sftp-key', await lab.exec(container, ['cat', '/keys/erp_ed25519']));
  return { host: 'sftp', hostKey, keySecret, container };
}
