# syntax=docker/dockerfile:1
# The base: Node 26 (the active LTS) on Debian 13 slim, pinned by the multi-arch index digest of
# node:26.10.0-trixie-slim, so a rebuild gets the same base until the digest here is changed.
# Build stage: install every dependency from the lock file and compile TypeScript.
FROM node:26.10.0-trixie-slim@sha256:930557a230abacbc3f4fd9b8648abf8f4bee1e17cb72195dcdfb2f709bc85b33 AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY mappings ./mappings
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code and production dependencies only, as an unprivileged user.
FROM node:26.10.0-trixie-slim@sha256:930557a230abacbc3f4fd9b8648abf8f4bee1e17cb72195dcdfb2f709bc85b33
ENV NODE_ENV=production PAYBRIDGE_HOST=0.0.0.0 PAYBRIDGE_PORT=8080
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/mappings ./dist/mappings
# shadow records and other files the gateway writes: a directory the unprivileged user owns
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
# GET /healthz at the address serve listens on, read from the same settings the same way (a Kubernetes
# service link PAYBRIDGE_PORT=tcp://... is no setting); a port given as a flag needs the same flag here
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["node", "dist/src/healthcheck.js"]
ENTRYPOINT ["node", "dist/src/cli.js"]
# With no upstream configured (PAYBRIDGE_CURRENT_URL, ...) the gateway embeds the sandbox.
CMD ["serve"]
