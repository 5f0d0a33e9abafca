# Stand-in for the official postgres:15 image: Debian's PostgreSQL 15 with the postgres user as
# uid 999 and an entrypoint that does what the official one does with POSTGRES_PASSWORD,
# POSTGRES_DB and PGDATA on an empty data folder (postgres-entrypoint.sh).
ARG BASE
FROM ${BASE}
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && usermod -u 999 postgres && groupmod -g 999 postgres \
 && mkdir -p /var/run/postgresql /var/lib/postgresql/data \
 && chown -R postgres:postgres /var/run/postgresql /var/lib/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data
USER 999:999
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
