# An image of one static binary (pause, CoreDNS, Traefik) on the distroless stand-in: the
# cluster's own add-ons, built from their Go modules. The binary is the entrypoint; pods give
# its arguments.
ARG BASE
FROM ${BASE}
ARG BINARY
COPY ${BINARY} /entrypoint
ENTRYPOINT ["/entrypoint"]
