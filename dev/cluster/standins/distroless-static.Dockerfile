# Stand-in for gcr.io/distroless/static-debian12:nonroot: no shell, no libc; CA certificates,
# /etc/passwd with nonroot (65532), a /tmp, and nothing else.
FROM scratch
COPY rootfs/ /
USER 65532:65532
