# svctrail's image: the built server (dist/, ui/dist/, migrations/) and its production
# dependencies, run as a non-root user with the flags deploy/ gives it. Build it after the
# project's own build, from the repository:
#
#   npm ci && npm run build
#   docker build -t svctrail:0.1.0 .              # or: --build-arg BASE=<a Node 20 image of yours>
#
# BASE is any image with Node.js 20 and npm on a glibc Debian (node:20-bookworm-slim by default).
ARG BASE=node:20-bookworm-slim

# The production dependencies: the project's install, pruned of the development ones (offline,
# from package-lock.json). better-sqlite3 is native: a copy built for another OS or CPU than the
# image's does not load, and is rebuilt for it.
FROM ${BASE} AS dependencies
WORKDIR /opt/svctrail
COPY package.json package-lock.json ./
COPY node_modules node_modules
RUN npm prune --omit=dev --offline --no-audit --no-fund \
 && (node -e "new (require('better-sqlite3'))(':memory:').close()" || npm rebuild better-sqlite3)

FROM ${BASE}
WORKDIR /opt/svctrail
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY --from=dependencies /opt/svctrail/node_modules node_modules
COPY migrations migrations
COPY ui/dist ui/dist
COPY dist dist
# Owned by root and read-only to the server's user: only --data-dir (a volume) is written.
USER 10001:10001
EXPOSE 6443
# The CLI in a running container: `node dist/cli.js issue-credentials …`.
ENTRYPOINT ["node", "dist/main.js"]
