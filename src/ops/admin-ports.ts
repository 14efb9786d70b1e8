/**
 * Fleet processes with an admin server, each with its own default port (both can share a host). A
 * leaf of its own: the commands' help names the defaults without loading the admin configuration.
 */
export const ADMIN_DEFAULT_PORTS = { worker: 9464, scheduler: 9465 } as const;
export type AdminRole = keyof typeof ADMIN_DEFAULT_PORTS;
