# Stand-in for prom/prometheus (the cluster test's Prometheus, dev/cluster/prometheus.yaml):
# Debian's Prometheus 2, run as nobody (65534) like the official image, its data in /prometheus.
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /prometheus && chown 65534:65534 /prometheus
USER 65534:65534
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
