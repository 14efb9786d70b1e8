import { ConfigError } from '../../config/errors.js';
import { checkExportOf } from '../../fleet/feed-ref.js';
import { FEED_BUSY as BUSY, enqueueFeed } from '../../fleet/producer.js';
import { stopFor } from '../../sync/stop.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { loadFleetFeeds, withFeedsDir, withFleet } from '../fleet.js';
import { cliLogger } from '../log-output.js';

export interface EnqueueFlags {
  file?: string;
  /** The fleet's feed directory (default ERP_BRIDGE_FEEDS_DIR, else config/feeds). */
  feeds?: string;
  reimport: boolean;
  dryRun: boolean;
  acceptNewIdentity: boolean;
}

export async function enqueue(feedFiles: string[], flags: EnqueueFlags): Promise<ExitCode> {
  const logger = cliLogger('text', 'warn');
  const feeds = await loadFleetFeeds(feedFiles, (loaded) => {
    if (flags.file !== undefined) for (const one of loaded) checkExportOf(one, flags.file, ConfigError);
  });
  if (typeof feeds === 'number') return feeds;
  return withFleet(
    logger,
    'producer',
    async (fleet) => {
      let code: ExitCode = EXIT.OK;
      for (const loaded of feeds) {
        // Each feed is enqueued or refused on its own: a location that refuses (a host key, a
        // login, a secret not set) or no file is that feed's, named, and the next feed is
        // enqueued; the command exits with the highest code of its feeds.
        const results = await enqueueFeed(
          loaded,
          {
            ...(flags.file ? { file: flags.file } : {}),
            reimport: flags.reimport,
            dryRun: flags.dryRun,
            acceptNewIdentity: flags.acceptNewIdentity,
            // Not arrived yet (no marker, still growing): said, and left for a later enqueue or tick.
            onWaiting: (w) => process.stdout.write(`${loaded.feed.name}: ${w.path}: waiting (${w.reason})\n`),
            // No file is no success (exit 2) unless the feed says it is normal for it.
            onNoFile: (noFile) => {
              process.stdout.write(`${loaded.feed.name}: ${noFile.message}\n`);
              if (noFile.stop) code = Math.max(code, EXIT.INVALID_CONFIG) as ExitCode;
            },
          },
          {
            feedsDir: fleet.config.feedsDir,
            registry: fleet.registry,
            store: fleet.store,
            imports: fleet.queues.imports,
            logger,
            now: () => Date.now(),
          },
        ).catch((error: unknown) => {
          const stop = stopFor(error);
          if (!stop) throw error;
          process.stderr.write(
            `erp-bridge: ${loaded.feed.name}: not enqueued: ${stop.message} (${stop.code})\n`,
          );
          code = Math.max(code, stop.exitCode) as ExitCode;
          return [];
        });
        for (const r of results)
          process.stdout.write(
            r.enqueued === false
              ? `${loaded.feed.name}: ${r.file}: skipped (${r.reason}; run ${r.runId}${r.reason === BUSY ? '' : '; --reimport to run it again'})\n`
              : `${loaded.feed.name}: ${r.file}: enqueued (${r.enqueued}) as run ${r.runId}\n`,
          );
      }
      return code;
    },
    withFeedsDir(process.env, flags.feeds),
  );
}
