import { lazyLocation } from './lazy-location.js';
import { type LocalOptions, openLocalLocation } from './local.js';
import type { Location } from './location.js';
import { type LocationConfig, s3Label, sftpLabel } from './location-config.js';

/**
 * The Location of a feed's `source.location` (absent: the local disk). Secrets are read from the
 * environment variables the feed names, when the location is first used. A remote location's
 * client is loaded then too (lazy-location.ts), and it connects on its first list, stat or read.
 */
export function openLocation(
  config: LocationConfig | undefined,
  env: NodeJS.ProcessEnv,
  local: LocalOptions = {},
): Location {
  switch (config?.type) {
    case undefined:
    case 'local':
      return openLocalLocation(local);
    case 'sftp':
      return lazyLocation(sftpLabel(config), async () =>
        (await import('./sftp.js')).openSftpLocation(config, env),
      );
    case 's3':
      return lazyLocation(s3Label(config), async () => (await import('./s3.js')).openS3Location(config));
  }
}
