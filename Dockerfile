# syntax=docker/dockerfile:1
#
# Kassa in one image: `kassa start` by default; compose.yaml runs the same image as `migrate`, `api`
# and `worker`. docs/operations.md explains volumes, secrets, TLS and upgrades.
#
#   docker build -t kassa .
#   docker run -d --name kassa -p 180:180 -v kassa-data:/data --env-file .env kassa
#
# The runtime image holds Node, the single-file build (dist/kassa.mjs, see scripts/build.ts), the
# migrations and better-sqlite3's native addon: no npm packages beyond that, no tsx, no compiler.

# ---- build: compile better-sqlite3 for this Node and bundle Kassa into /src/dist ----
FROM node:22-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# Install scripts stay off (the anvil devnet binary is not needed here); better-sqlite3's is the one
# the build needs: a prebuilt addon, or a compile with the tools above when none can be fetched.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild better-sqlite3
COPY . .
RUN npm run build

# ---- runtime ----
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    KASSA_DB=/data/kassa.db \
    PORT=180
WORKDIR /app
COPY --from=build /src/dist/ /app/
# The image's `node` user (uid 1000) owns the data volume; Kassa never runs as root. Port 180 needs
# no privilege inside a container on Docker 20.10+ and Podman (ip_unprivileged_port_start=0).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 180
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||180)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/app/kassa.mjs"]
CMD ["start"]
