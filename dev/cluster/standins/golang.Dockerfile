# Stand-in for golang:<version>-bookworm: Debian's base with this machine's Go toolchain, and the
# project's modules as a file-based module proxy, so that `go build` in docker/Dockerfile.go
# fetches nothing from outside (the module cache mount of that Dockerfile fills from it).
ARG BASE
FROM ${BASE}
COPY go/ /usr/local/go/
COPY goproxy/ /opt/goproxy/
ENV GOPATH=/go \
    PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    GOPROXY=file:///opt/goproxy \
    GOSUMDB=off \
    GOTOOLCHAIN=local \
    GOFLAGS=-buildvcs=false
