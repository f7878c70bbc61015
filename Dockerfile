# keygate: build on Node 20 / Debian bookworm (the glibc the native uWebSockets.js binary needs),
# run as a non-root user with the data folder as a volume.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY src ./src
COPY lua ./lua
COPY web ./web
# tsc, then the dashboard's bundle (dist/dashboard/public; esbuild, a dev dependency, is pruned after).
RUN npx tsc -p tsconfig.json && node web/build.mjs && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/lua ./lua
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# The node flags of `npm start` (package.json): a larger young generation, fewer garbage collections.
CMD ["node", "--max-semi-space-size=32", "dist/main.js"]
