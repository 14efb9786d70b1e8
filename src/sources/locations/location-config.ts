import * as z from 'zod';

/**
 * A feed's `source.location`: where `source.path` (a glob) is looked up. Secrets are never in the
 * YAML: the feed names the environment variables that hold them (`envName`, every location's
 * `...Env` key, the database location's `urlEnv` too).
 */
export const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

export const LocalLocation = z.object({ type: z.literal('local') }).strict();

export const SftpLocation = z
  .object({
    type: z.literal('sftp'),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(22),
    user: z.string().min(1),
    /** The variable holding the password. */
    passwordEnv: envName.optional(),
    /** The variable holding the private key's text (OpenSSH or PEM). */
    privateKeyEnv: envName.optional(),
    /** The variable holding the private key's passphrase, if it has one. */
    passphraseEnv: envName.optional(),
    /**
     * The server's host key as `ssh-keygen -lf` prints it: `SHA256:` and unpadded base64 of the
     * key's sha256. Required: an unknown or changed key is refused, naming the fingerprint seen.
     */
    hostKey: z
      .string()
      .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'SHA256:<43 base64 characters>, as ssh-keygen -lf prints it'),
  })
  .strict()
  .refine((s) => s.passwordEnv !== undefined || s.privateKeyEnv !== undefined, {
    message: 'give passwordEnv or privateKeyEnv (the names of environment variables holding the secret)',
  });

export const S3Location = z
  .object({
    type: z.literal('s3'),
    bucket: z.string().min(1),
    region: z.string().min(1).optional(),
    /** An S3-compatible store's URL (MinIO, s3rver, ...); AWS when absent. */
    endpoint: z.string().url().optional(),
    /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible stores need. */
    forcePathStyle: z.boolean().default(false),
  })
  .strict();

export const LocationConfig = z.discriminatedUnion('type', [LocalLocation, SftpLocation, S3Location]);
export type LocationConfig = z.output<typeof LocationConfig>;
export type SftpLocationConfig = z.output<typeof SftpLocation>;
export type S3LocationConfig = z.output<typeof S3Location>;

/** How reports and messages name a remote location (never with a secret). */
export function sftpLabel(config: SftpLocationConfig): string {
  return `sftp://${config.user}@${config.host}:${config.port}`;
}

export function s3Label(config: S3LocationConfig): string {
  return config.endpoint
    ? `s3://${config.bucket} on ${new URL(config.endpoint).host}`
    : `s3://${config.bucket}`;
}
