# Stand-in for curlimages/curl (the chart's `helm test` pod): Debian's curl and sh, uid 100.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends curl ca-certificates \
 && rm -rf /var/lib/apt/lists/*
USER 100:101
