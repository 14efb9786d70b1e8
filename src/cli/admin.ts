import type { Command } from 'commander';
import { ADMIN_DEFAULT_PORTS, type AdminRole } from '../ops/admin-ports.js';

/** `--admin-host` and `--admin-port` of the fleet commands; validated with the environment (admin-config). */
export function adminOptions(command: Command, role: AdminRole): Command {
  return command
    .option('--admin-host <host>', 'admin HTTP address (default ERP_BRIDGE_ADMIN_HOST, else 127.0.0.1)')
    .option(
      '--admin-port <port>',
      `admin HTTP port, 0 = any free one, off = none (default ERP_BRIDGE_ADMIN_PORT, else ${ADMIN_DEFAULT_PORTS[role]})`,
    );
}
