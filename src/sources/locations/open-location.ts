import { type LocalOptions, openLocalLocation } from './local.js';
import type { Location } from './location.js';
import type { LocationConfig, S3LocationConfig, SftpLocationConfig } from './location-config.js';

/**
 * The remote locations' factories. Each connects lazily (on the first list, stat or read), so
 * opening one costs nothing until it is used.
 */
const REMOTE: {
  sftp: (config: SftpLocationConfig, env: NodeJS.ProcessEnv) => Location;
  s3: (config: S3LocationConfig) => Location;
} = {
  sftp: () => notBuilt('sftp'),
  s3: () => notBuilt('s3'),
};

function notBuilt(type: string): never {
  throw new Error(`the ${type} location is not built in this branch`);
}

/**
 * The Location of a feed's `source.location` (absent: the local disk). Secrets are read from the
 * environment variables the feed names, here and nowhere else.
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
      return REMOTE.sftp(config, env);
    case 's3':
      return REMOTE.s3(config);
  }
}
