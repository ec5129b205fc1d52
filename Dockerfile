# syntax=docker/dockerfile:1
# Build stage: install every dependency from the lock file and compile TypeScript.
FROM node:26-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY src ./src
COPY mappings ./mappings
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code and production dependencies only, as an unprivileged user.
FROM node:26-trixie-slim
ENV NODE_ENV=production PAYBRIDGE_HOST=0.0.0.0 PAYBRIDGE_PORT=8080
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# shadow records and other files the gateway writes: a directory the unprivileged user owns
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PAYBRIDGE_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli.js"]
# With no upstream configured (PAYBRIDGE_CURRENT_URL, ...) the gateway embeds the sandbox.
CMD ["serve"]
