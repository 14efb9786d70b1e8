import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { composeProblems } from '../../support/container/check-compose.js';
import { dockerfileProblems } from '../../support/container/check-dockerfile.js';
import { dockerIgnoreMatcher } from '../../support/container/dockerignore.js';
import { documentedConfigKeys } from '../../support/container/documented-keys.js';
import { repoContext } from '../../support/container/repo-context.js';

/**
 * No Docker engine runs where the tests run, so the Dockerfile and docker-compose.yml are checked
 * against what they refer to: the CLI's commands and flags, the configuration keys of docs/configuration.md, the
 * files of the build context and the TypeScript build's output. Each rule is also shown to fire on
 * a small broken example, so a green run means the real files pass, not that nothing was checked.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const repo = repoContext(root);

/** `text` with one part replaced; throws when the part is missing, so a stale example fails loudly. */
function breaking(text: string, part: string, replacement: string): string {
  if (!text.includes(part)) throw new Error(`the example no longer contains ${part}`);
  return text.replace(part, replacement);
}

describe('the repository', () => {
  it('Dockerfile has no problems', () => {
    expect(dockerfileProblems(repo.read('Dockerfile'), repo.dockerfile)).toEqual([]);
  });

  it('docker-compose.yml has no problems', () => {
    expect(composeProblems(repo.read('docker-compose.yml'), repo.compose)).toEqual([]);
  });

  it("checks the real compose file's worker: a misspelt command or variable there is reported", () => {
    const compose = repo.read('docker-compose.yml');
    expect(
      composeProblems(breaking(compose, 'command: ["worker"]', 'command: ["wroker"]'), repo.compose),
    ).toEqual([expect.stringMatching(/service worker: "wroker": wroker is not a command of erp-bridge/)]);
    const extraVariable = breaking(compose, 'ERP_BRIDGE_ADMIN_PORT: "9464"', 'ERP_BRIDGE_ADMIN_PROT: "9464"');
    expect(composeProblems(extraVariable, repo.compose)).toEqual([
      expect.stringContaining(
        'service worker sets ERP_BRIDGE_ADMIN_PROT, which docs/configuration.md does not document',
      ),
    ]);
  });

  it("checks the real Dockerfile's runtime stage: dropping USER is reported", () => {
    const dockerfile = breaking(repo.read('Dockerfile'), '\nUSER node\n', '\n');
    expect(dockerfileProblems(dockerfile, repo.dockerfile)).toEqual([
      'Dockerfile: the runtime stage sets no USER, so it runs as root',
    ]);
  });

  it('the TypeScript build writes the CLI entry and the job handlers, and no tests', () => {
    const outputs = repo.dockerfile.builtFiles;
    expect(outputs).toContain('dist/src/cli/main.js');
    expect(outputs).toContain('dist/jobs/import-file.js');
    expect([...outputs].filter((file) => file.startsWith('dist/test/'))).toEqual([]);
  });
});

describe('the compose check reports', () => {
  const valid = `
x-env: &env
  PARTNER_API_URL: \${PARTNER_API_URL:-http://sandbox:4010/v2}
  PARTNER_CLIENT_SECRET: "$\${not-interpolated}"
services:
  redis:
    image: redis:7-alpine
    environment: {MADE_UP: "redis is not our image"}
  worker:
    build: .
    image: erp-bridge:local
    command: ["worker", "--concurrency", "4"]
    environment:
      <<: *env
      REDIS_URL: redis://redis:6379
    ports: ["9464"]
    depends_on: [redis]
    volumes: [exports:/app/exports:ro, ./config/feeds:/app/config/feeds:ro]
  sandbox:
    image: erp-bridge:local
    command: sandbox --host 0.0.0.0 --port 4010
  defaulted:
    image: erp-bridge:local
  demo:
    image: erp-bridge:local
    command: ["sync", "config/feeds/demo/plans.yaml", "--report-dir", "/app/reports/demo"]
  scheduler:
    image: erp-bridge:local
    command: ["scheduler", "--feeds", "/feeds/exports"]
    volumes: ["./config/feeds/demo:/feeds:ro", "exports:/app/exports:ro"]
volumes:
  exports:
`;
  const check = (text: string) => composeProblems(text, repo.compose);

  it('nothing on a valid file (so each problem below comes from its one change)', () => {
    expect(check(valid)).toEqual([]);
  });

  it('a command the CLI does not have', () => {
    expect(check(breaking(valid, '["worker", "--concurrency", "4"]', '["wrker"]'))).toEqual([
      expect.stringContaining('service worker: "wrker": wrker is not a command of erp-bridge'),
    ]);
  });

  it('a flag the command does not have, and an invalid flag value', () => {
    expect(check(breaking(valid, '"--concurrency"', '"--parallel"'))).toEqual([
      expect.stringContaining('service worker: "worker --parallel 4": error: unknown option \'--parallel\''),
    ]);
    expect(check(breaking(valid, '--port 4010', '--port many'))).toEqual([
      expect.stringMatching(/service sandbox: .*--port.*expected a port/),
    ]);
  });

  it("the image's default command when a service sets none", () => {
    expect(composeProblems(valid, { ...repo.compose, defaultCommand: ['serve'] })).toEqual([
      expect.stringContaining('service defaulted: "serve": serve is not a command of erp-bridge'),
    ]);
  });

  it('an undocumented variable, also when it comes in through a merged anchor', () => {
    expect(check(breaking(valid, 'REDIS_URL: redis', 'REDIS_ADDRESS: redis'))).toEqual([
      expect.stringContaining(
        'service worker sets REDIS_ADDRESS, which docs/configuration.md does not document',
      ),
    ]);
    expect(check(breaking(valid, '  PARTNER_API_URL: $', '  PARTNER_BASE_URL: $'))).toEqual([
      expect.stringContaining(
        'service worker sets PARTNER_BASE_URL, which docs/configuration.md does not document',
      ),
    ]);
  });

  it('an undocumented or malformed variable read from the shell', () => {
    expect(check(breaking(valid, '${PARTNER_API_URL:-', '${PARTNER_URL:-'))).toEqual([
      expect.stringContaining(
        'reads PARTNER_URL from the shell or .env, which docs/configuration.md does not document',
      ),
    ]);
    expect(check(breaking(valid, '"$${not-interpolated}"', '"$(openssl rand -hex 16)"'))).toEqual([
      expect.stringContaining('"$(openssl rand -hex 16)" is not a valid interpolation'),
    ]);
  });

  it('a scalable service with a container name or a fixed host port', () => {
    expect(check(breaking(valid, '    ports: ["9464"]', '    container_name: worker'))).toEqual([
      expect.stringContaining('service worker sets container_name'),
    ]);
    expect(check(breaking(valid, 'ports: ["9464"]', 'ports: ["127.0.0.1:9464:9464"]'))).toEqual([
      expect.stringContaining('service worker publishes a fixed host port ("127.0.0.1:9464:9464")'),
    ]);
  });

  it('dangling names and a missing bind-mount source', () => {
    expect(check(breaking(valid, 'depends_on: [redis]', 'depends_on: [redis, valkey]'))).toEqual([
      expect.stringContaining('service worker depends on valkey, which is not a service'),
    ]);
    expect(check(breaking(valid, '[exports:/app/exports', '[export:/app/exports'))).toEqual([
      expect.stringContaining(
        'service worker mounts the volume export, which the top-level volumes do not declare',
      ),
    ]);
    expect(check(breaking(valid, './config/feeds:', './config/feed:'))).toEqual([
      expect.stringContaining('service worker mounts ./config/feed, which does not exist'),
    ]);
  });

  it('a file argument that is neither in the image nor in a bind mount (named volumes are not known)', () => {
    expect(check(breaking(valid, 'demo/plans.yaml', 'demo/plan.yaml'))).toEqual([
      expect.stringContaining(
        'service demo: config/feeds/demo/plan.yaml is neither in the image nor in a mounted folder',
      ),
    ]);
    expect(check(breaking(valid, '"/feeds/exports"', '"/feeds/exprts"'))).toEqual([
      expect.stringContaining(
        'service scheduler: /feeds/exprts is neither in the image nor in a mounted folder',
      ),
    ]);
    expect(check(breaking(valid, '"/feeds/exports"', '"/app/exports/not-known-without-docker"'))).toEqual([]);
  });

  it('settings that would hide what a service runs or sets', () => {
    expect(
      check(breaking(valid, '    depends_on: [redis]', '    depends_on: [redis]\n    env_file: .env')),
    ).toEqual([expect.stringContaining('service worker uses env_file')]);
    expect(
      check(breaking(valid, '    depends_on: [redis]', '    depends_on: [redis]\n    entrypoint: [sh]')),
    ).toEqual([expect.stringContaining('service worker replaces the entrypoint')]);
  });

  it('YAML that does not parse, and a missing scalable service', () => {
    // Reported as the YAML parser's errors, with their position: not as some later rule.
    const unparsable = check(breaking(valid, '    build: .', '  build: .'));
    expect(unparsable.length).toBeGreaterThan(0);
    for (const problem of unparsable)
      expect(problem).toMatch(/^docker-compose\.yml: .* at line \d+, column \d+:$/);
    expect(check(breaking(valid, '  worker:', '  workers:'))).toContainEqual(
      expect.stringContaining('no service worker'),
    );
  });
});

describe('the Dockerfile check reports', () => {
  const valid = `# syntax=docker/dockerfile:1
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
RUN npm ci --omit=dev \\
      --ignore-scripts
COPY --from=build /app/dist ./dist
USER node
HEALTHCHECK CMD node -e "fetch('http://127.0.0.1:9464/healthz')"
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["worker", "--concurrency", "2"]
`;
  const check = (text: string) => dockerfileProblems(text, repo.dockerfile);

  it('nothing on a valid file', () => {
    expect(check(valid)).toEqual([]);
  });

  it('a COPY of a file that does not exist, or that .dockerignore leaves out', () => {
    expect(check(breaking(valid, 'COPY src ./src', 'COPY src missing.txt ./'))).toEqual([
      'Dockerfile:6: COPY missing.txt: not in the build context',
    ]);
    expect(check(breaking(valid, 'COPY src ./src', 'COPY test ./test'))).toEqual([
      'Dockerfile:6: COPY test: excluded by .dockerignore',
    ]);
  });

  it('a COPY --from of a stage that does not exist', () => {
    expect(check(breaking(valid, '--from=build', '--from=builder'))).toEqual([
      'Dockerfile:13: COPY --from=builder: no earlier stage has that name',
    ]);
  });

  it('a runtime on another Node.js major', () => {
    expect(check(breaking(valid, 'FROM node:24-bookworm-slim\n', 'FROM node:20-bookworm-slim\n'))).toEqual([
      'Dockerfile: the runtime stage is based on node:20-bookworm-slim, expected node:24…',
    ]);
  });

  it('a runtime that runs as root', () => {
    expect(check(breaking(valid, 'USER node', 'USER root:root'))).toEqual([
      'Dockerfile:14: USER root:root runs as root',
    ]);
  });

  it('a missing HEALTHCHECK, or one that does not ask /healthz', () => {
    expect(check(breaking(valid, 'HEALTHCHECK', '# HEALTHCHECK'))).toEqual([
      'Dockerfile: the runtime stage has no HEALTHCHECK',
    ]);
    expect(check(breaking(valid, '/healthz', '/metrics'))).toEqual([
      'Dockerfile:15: HEALTHCHECK does not ask /healthz',
    ]);
  });

  it('an ENTRYPOINT the build does not produce, or that is not copied in', () => {
    expect(check(breaking(valid, 'dist/src/cli/main.js', 'dist/cli/main.js'))).toEqual([
      'Dockerfile:16: ENTRYPOINT dist/cli/main.js: the TypeScript build writes no such file',
    ]);
    expect(check(breaking(valid, 'COPY --from=build /app/dist ./dist\n', ''))).toEqual([
      'Dockerfile:15: ENTRYPOINT dist/src/cli/main.js: no COPY --from=<build stage> puts it into the runtime image',
    ]);
  });

  it('a default CMD the CLI does not accept', () => {
    expect(check(breaking(valid, '"--concurrency", "2"', '"--concurrency", "0"'))).toEqual([
      expect.stringMatching(/^Dockerfile:17: CMD "worker --concurrency 0": .*expected a whole number >= 1/),
    ]);
  });

  it('a production install that would run the "prepare" build', () => {
    expect(check(breaking(valid, '\\\n      --ignore-scripts', ''))).toEqual([
      expect.stringContaining(
        'Dockerfile:11: RUN npm ci --omit=dev: the "prepare" build needs dev dependencies',
      ),
    ]);
  });
});

describe('.dockerignore matching', () => {
  const ignored = dockerIgnoreMatcher('# comment\nnode_modules\n**/*.log\ntest\n!test/keep.ts\n/dist/\n');

  it('leaves out a listed folder with everything in it, and what ** patterns match at any depth', () => {
    expect(ignored('node_modules')).toBe(true);
    expect(ignored('node_modules/zod/index.js')).toBe(true);
    expect(ignored('./dist/src/cli/main.js')).toBe(true);
    expect(ignored('a/b/debug.log')).toBe(true);
    expect(ignored('debug.log')).toBe(true);
  });

  it('keeps what no pattern matches, patterns being anchored at the root, and ! re-includes', () => {
    expect(ignored('src/node_modules.ts')).toBe(false);
    expect(ignored('src/test')).toBe(false);
    expect(ignored('test/keep.ts')).toBe(false);
    expect(ignored('test/other.ts')).toBe(true);
  });
});

describe('documented configuration keys', () => {
  it('are the backticked names in the first column of a table, not prose or other columns', () => {
    const keys = documentedConfigKeys(
      [
        'Set `IN_PROSE` to anything.',
        '| Variable | Meaning |',
        '| --- | --- |',
        '| `FIRST_COLUMN` | unlike `SECOND_COLUMN` |',
        '|`TIGHT`|no spaces|',
        '| `--flag` | options are not variables |',
      ].join('\n'),
    );
    expect([...keys]).toEqual(['FIRST_COLUMN', 'TIGHT']);
  });
});
