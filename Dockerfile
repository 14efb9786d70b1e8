# syntax=docker/dockerfile:1
# erp-bridge image: one image for every role (worker, scheduler, sandbox, one-shot CLI commands).
# Three stages so the runtime image holds no compiler, no dev dependency and no npm cache.
# Built and run for real with podman by `npm run test:containers` (test/containers/fleet.test.ts);
# test/unit/container/container-files.test.ts checks this file statically in `npm test`.

# Production dependencies only. --ignore-scripts: the root "prepare" script builds with tsc, a dev
# dependency that is not installed here, and no production dependency needs its install script
# (msgpackr-extract ships prebuilt binaries as optional packages; msgpackr falls back to plain JS).
# No `npm cache clean`: only node_modules leaves this stage, so the cache never reaches the runtime
# image, and the clean (which npm insists on running with --force) only cost a step and a warning.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts

# Compile TypeScript with every dependency; only dist/ leaves this stage. Sources are copied after
# the install so that a code change does not reinstall the dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json tsconfig.browser.json ./
COPY src ./src
COPY jobs ./jobs
COPY .build ./.build
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# main.js reads the version from package.json; config/ holds the demo feeds and their exports.
COPY package.json ./
COPY config ./config
# Mount points owned by the runtime user, so named volumes mounted here start writable by it.
RUN mkdir -p /app/exports /app/reports && chown node:node /app/exports /app/reports
# The "node" user (uid 1000) comes with the base image.
USER node
# The admin server's liveness endpoint (worker: port 9464, scheduler: 9465, set by
# ERP_BRIDGE_ADMIN_PORT). Slim images have no curl, so node asks; any answer but 2xx is unhealthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:${ERP_BRIDGE_ADMIN_PORT:-9464}/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["worker"]
