import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { csvLine } from '../report-files/csv.js';
import { CONSOLE_HEADERS, CONSOLE_METHODS } from './console-headers.js';
import type { ConsoleSource, Detail, RecordQuery } from './console-source.js';
import { CONSOLE_CSS } from './console-style.js';
import type { Html } from './html.js';
import { html } from './html.js';
import { feedPage } from './pages/feed-page.js';
import { layout } from './pages/layout.js';
import { defaultDir, overviewPage, SORTS } from './pages/overview-page.js';
import { reconcilePage } from './pages/reconcile-page.js';
import { damagedPage, runPage } from './pages/run-page.js';

/**
 * Who may read the console: the server's credential check (the admin server's, src/ops/admin-auth.ts,
 * wired in by the CLI: the console imports nothing of ops, so the admin server can mount it).
 */
export interface ConsoleGuard {
  /** Whether this Authorization header opens the console (true for all when no credential is set). */
  authorized(header: string | undefined): boolean;
  /** The WWW-Authenticate challenge of a 401. */
  challenge: string;
}

export interface ConsoleOptions {
  /** When set, every console request must pass it, as the admin server's dashboard's do. */
  guard?: ConsoleGuard;
  /** Records per page of a run or reconcile. Default 50. */
  pageSize?: number;
  /** Runs a feed's history shows. Default 100. */
  historyRuns?: number;
}

const ALL_METHODS = ['DELETE', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;
const ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/);
const FEED = z.string().min(1).max(200);

// The query string is input like any other: unknown or malformed values fall back, never throw.
const Text = z.string().max(200).catch('');
const Page = z.coerce.number().int().min(1).max(1_000_000).catch(1);
const RecordsQuery = z.object({ q: Text.default(''), page: Page.default(1) });
const OverviewQuery = z.object({
  q: Text.default(''),
  state: Text.default(''),
  sort: z.enum(SORTS).catch('state').default('state'),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
  page: Page.default(1),
});

const page = (reply: FastifyReply, body: Html, code = 200) =>
  reply.code(code).type('text/html; charset=utf-8').send(body.text);

const notFound = (reply: FastifyReply, what: string) =>
  page(reply, layout('Not found', html`<p>${what}</p><p><a href="/console">Back to the runs</a></p>`), 404);

/** What a run's or a reconcile's page route reads and shows (see detailOr404 below). */
interface DetailKind<S> {
  /** The damaged page's title. */
  title: string;
  /** The 404's words. */
  missing: string;
  read: (id: string) => Promise<Detail<S> | undefined>;
  /** The page of a readable summary, with one page (`query`) of its records. */
  page: (id: string, summary: S, query: RecordQuery) => Promise<Html>;
}

/** The summary a URL's id names; undefined when there is none (an id that cannot be one included). */
async function detailOf<S>(
  param: string,
  read: (id: string) => Promise<Detail<S> | undefined>,
): Promise<{ id: string; detail: Detail<S> } | undefined> {
  const id = ID.safeParse(param);
  const detail = id.success ? await read(id.data) : undefined;
  return id.success && detail ? { id: id.data, detail } : undefined;
}

/**
 * The console's routes under /console, as a fastify plugin over a read port: `erp-bridge console`
 * serves them alone, the worker's and scheduler's admin servers can mount them beside /queues.
 * Read-only (GET/HEAD, anything else 405), the security headers on every answer, credentials
 * asked for when configured. The Host check belongs to the server (the admin server has it).
 */
export function consolePlugin(source: ConsoleSource, options: ConsoleOptions = {}): FastifyPluginAsync {
  const pageSize = options.pageSize ?? 50;
  const historyRuns = options.historyRuns ?? 100;
  const guard = options.guard;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(CONSOLE_HEADERS);
      if (!CONSOLE_METHODS.has(request.method))
        return reply
          .code(405)
          .header('allow', 'GET, HEAD')
          .type('text/plain; charset=utf-8')
          .send('the console is read-only: GET or HEAD\n');
      if (!guard || guard.authorized(request.headers.authorization)) return;
      return reply
        .code(401)
        .header('www-authenticate', guard.challenge)
        .type('text/plain; charset=utf-8')
        .send('the console needs the admin credentials\n');
    });

    // Other methods reach the hook above (and its 405) instead of a 404.
    for (const url of ['/console', '/console/*'])
      app.route({ method: [...ALL_METHODS], url, handler: async () => undefined });

    app.get('/console/style.css', async (_request, reply) =>
      reply.type('text/css; charset=utf-8').send(CONSOLE_CSS),
    );

    app.get('/console', async (request, reply) => {
      const query = OverviewQuery.parse(request.query ?? {});
      const overview = await source.overview();
      return page(reply, overviewPage(overview, { ...query, dir: query.dir ?? defaultDir(query.sort) }));
    });

    /**
     * A run's or reconcile's page: the URL's id parsed, its summary read, a 404 when there is none,
     * the damaged page when it cannot be read, else `kind.page` with one page of its records.
     */
    const detailOr404 =
      <S>(kind: DetailKind<S>) =>
      async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
        const found = await detailOf(request.params.id, kind.read);
        if (!found) return notFound(reply, kind.missing);
        if ('damaged' in found.detail) return page(reply, damagedPage(kind.title, found.detail.damaged));
        const query = { ...RecordsQuery.parse(request.query ?? {}), pageSize };
        return page(reply, await kind.page(found.id, found.detail.summary, query));
      };

    app.get(
      '/console/runs/:id',
      detailOr404({
        title: 'Run',
        missing: 'No run with this id in the report folders.',
        read: (id) => source.run(id),
        page: async (id, run, query) => runPage(run, await source.problems(id, query), query),
      }),
    );

    app.get<{ Params: { id: string } }>('/console/runs/:id/records.csv', async (request, reply) => {
      const found = await detailOf(request.params.id, (id) => source.run(id));
      if (!found || 'damaged' in found.detail) return notFound(reply, 'No readable run with this id.');
      const { q } = RecordsQuery.parse(request.query ?? {});
      const records = source.allProblems(found.id, q);
      async function* lines() {
        yield csvLine(['file', 'line', 'key', 'externalId', 'outcome', 'code', 'message', 'amount']);
        for await (const o of records)
          yield csvLine([o.file, o.line, o.key, o.externalId, o.outcome, o.code, o.message, o.amount]);
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${found.id}-records.csv"`)
        .send(Readable.from(lines()));
    });

    app.get<{ Params: { feed: string } }>('/console/feeds/:feed', async (request, reply) => {
      const feed = FEED.safeParse(request.params.feed);
      if (!feed.success) return notFound(reply, 'No such feed.');
      return page(reply, feedPage(feed.data, await source.history(feed.data, historyRuns)));
    });

    app.get(
      '/console/reconciles/:id',
      detailOr404({
        title: 'Reconcile',
        missing: 'No reconcile with this id in the report folders.',
        read: (id) => source.reconcile(id),
        page: async (id, reconcile, query) =>
          reconcilePage(reconcile, await source.differences(id, query), query),
      }),
    );
  };
}
