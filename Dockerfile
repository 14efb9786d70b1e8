# syntax=docker/dockerfile:1
# Build stage: install everything (dev deps compile TypeScript), then drop dev deps.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
RUN npm ci && npm prune --omit=dev

# Runtime stage: compiled code, production dependencies and the feed definitions only.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY config ./config
# Reports are written under /app/reports; mount a volume there to keep them.
RUN mkdir -p /app/reports && chown node:node /app/reports
USER node
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["--help"]
