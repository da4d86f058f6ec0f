# syntax=docker/dockerfile:1
#
# svc-licensing: the API (and its operator CLI) in one image.
#   docker build -t svc-licensing:0.1.0 .
#   docker run -p 3000:3000 svc-licensing:0.1.0            # SQLite in /app/data, sample models
#   docker run svc-licensing:0.1.0 node dist/apps/cli/main.js migrate   # the CLI
# See docs/OPERATIONS.md. (Not built in this repository's CI: no container engine runs there;
# test/e2e/deploy.e2e-spec.ts checks the paths this file names.)

# ---- build: bundle both apps (dist/apps/api/main.js, dist/apps/cli/main.js) and the console, then keep only the production dependencies ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles its native module when no prebuilt binary matches
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json webpack.config.js ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: dist + production node_modules + config, as a non-root user ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY config ./config
# the default SQLite database and model store live here (mount a volume, or use PostgreSQL and MODEL_HOST)
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# As `npm run start:built` starts it: V8 heap limits (a 384 MB old-space ceiling, below the Deployment's
# 512 MiB limit, and 8 MiB young-generation semi-spaces) that keep the process near 195 MiB resident
# under the benchmark's load instead of 270 with V8's defaults (docs/PERFORMANCE.md, issues 6 and 25),
# no allocation-site pretenuring: a burst of requests must not lead V8 to allocate part of each later
# request's objects straight in the old generation (docs/PERFORMANCE.md, "pretenuring"); and no memory
# reducer: the heap is not shrunk after a quiet spell, so traffic that resumes does not meet its pauses
CMD ["node", "--max-old-space-size=384", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "--no-memory-reducer", "dist/apps/api/main.js"]
