import { type Command, Option } from 'commander';
import { RECORD_KINDS } from '../../kinds/kind-names.js';
import { positiveInt } from '../options.js';
import type { InitFlags } from './init-run.js';

/** `erp-bridge init <export>`: infers a feed from one export and writes it, commented. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'look at one export (its format, encoding, delimiter, preamble, date and number formats, columns) and write a commented feed for it, printing what was inferred and how sure; what init cannot decide is left as "<fill in: ...>" placeholders that check and sync refuse until replaced',
    )
    .argument(
      '[export]',
      'one export file: a local path, or with --location its path there (SFTP: absolute; S3: the key); none with a database location',
    )
    .addOption(
      new Option('--kind <kind>', 'the record kind (default: inferred from the columns)').choices(
        RECORD_KINDS,
      ),
    )
    .option('--name <name>', 'the feed name (default: from the export file name)')
    .option('--account-id <id>', 'the customer account id (default: a placeholder to fill in)', positiveInt)
    .option(
      '--location <yaml>',
      "where the export lives, as a feed's source.location: a YAML flow mapping such as '{type: sftp, host: h, user: u, privateKeyEnv: KEY_VAR, hostKey: \"SHA256:...\"}' or '{type: s3, bucket: b, region: eu-central-1}', or a database: postgres or mysql (secrets from the variables it names; default: the local disk)",
    )
    .option(
      '--table <table>',
      'with --location postgres or mysql (URL in ERP_DB_URL, or {type: postgres, urlEnv: VAR}): the table to read its first rows from, e.g. erp.bank_bookings',
    )
    .option(
      '--query <select>',
      'with a database location, instead of --table: a SELECT whose rows are the feed',
    )
    .option('--out <file>', 'where to write the feed (default: config/feeds/<name>.yaml)')
    .option('--force', 'overwrite the feed file when it exists', false)
    .action(async (exportFile: string | undefined, flags: InitFlags) => {
      // Loaded on use, as the other commands' run modules.
      const { init } = await import('./init-run.js');
      process.exitCode = await init(exportFile, flags);
    });
}
