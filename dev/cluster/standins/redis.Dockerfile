# Stand-in for the official redis:7 image: Debian's Redis 7 with the redis user as uid 999
# (the chart always gives the command).
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && usermod -u 999 redis && groupmod -g 999 redis
USER 999:999
EXPOSE 6379
CMD ["redis-server"]
