# Stand-in for nginxinc/nginx-unprivileged: Debian's nginx, its user as uid 101 like the real
# image, listening as that user (docker/Dockerfile.web replaces the configuration).
ARG BASE
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
 && usermod -u 101 www-data && groupmod -g 101 www-data
USER 101:101
EXPOSE 8080
CMD ["nginx", "-g", "daemon off;"]
