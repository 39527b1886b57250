# syntax=docker/dockerfile:1
# Multi-stage build: dependencies and the client build in one stage, a slim non-root runtime in the next.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# The drawn product pictures print their labels in DejaVu Sans (docs/decisions/0030-drawn-product-pictures.md);
# the slim image has no fonts at all, and sharp's SVG renderer would draw the labels empty.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/package.json /app/server.ts /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/api ./api
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/contract ./contract
COPY --from=build --chown=node:node /app/server-shared ./server-shared
COPY --from=build --chown=node:node /app/public ./public
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "--import", "tsx", "server.ts"]
