/**
 * A location's failure that says what it means for the run: every SFTP and S3 failure is one. A
 * run meeting it stops with `code` and `exitCode` (the CLI contract: 2 the feed's settings, such as
 * a secret variable not set; 3 the server refused or could not be reached, as for the service; 1
 * anything else), naming the location, never a secret. Only that feed's run stops: the other feeds
 * of the command go on.
 */
export abstract class LocationError extends Error {
  abstract readonly code: string;
  abstract readonly exitCode: 1 | 2 | 3;
}
