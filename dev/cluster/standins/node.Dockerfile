# Stand-in for node:<version>-bookworm-slim: Debian's base with this machine's Node.js and npm,
# and an npm cache holding web/package-lock.json's packages, used offline (npm ci in
# docker/Dockerfile.web fetches nothing from outside).
ARG BASE
FROM ${BASE}
COPY node /usr/local/bin/node
COPY npm/ /usr/local/lib/node_modules/npm/
COPY npm-cache/ /opt/npm-cache/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
ENV npm_config_cache=/opt/npm-cache \
    npm_config_offline=true \
    npm_config_update_notifier=false
