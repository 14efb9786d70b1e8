import { type LocalOptions, openLocalLocation } from './local.js';
import type { Location } from './location.js';
import type { LocationConfig } from './location-config.js';
import { openS3Location } from './s3.js';
import { openSftpLocation } from './sftp.js';

/**
 * The Location of a feed's `source.location` (absent: the local disk). Secrets are read from the
 * environment variables the feed names, here and nowhere else. A remote location connects lazily
 * (on the first list, stat or read), so opening one costs nothing until it is used.
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
      return openSftpLocation(config, env);
    case 's3':
      return openS3Location(config);
  }
}
