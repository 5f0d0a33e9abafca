#!/usr/bin/env bash
# Checks the nginx generated from charts/prode/routes.yaml: one nginx runs the generated server
# plus one stub server per service that answers with the service's name, and each request below
# must reach the expected service. Exits non-zero on any mismatch.
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"
LOG_PREFIX=test-routes
ensure_packages

base=${ROUTES_TEST_PORT:-28090}   # front on base, stubs on base+1, base+2, ...
dir=$(mktemp -d)
trap 'nginx_stop "$dir"; rm -rf "$dir"' EXIT
mkdir -p "$dir/dist"
echo web >"$dir/dist/index.html"   # so the SPA fallback answers "web" too
mkdir -p "$dir/dist/assets" && echo 'console.log(1)' >"$dir/dist/assets/app-0123abcd.js"

port_busy "$base" && die "port $base is in use (set ROUTES_TEST_PORT)"
# What every Go service now sends on each answer (services/platform/httpserver/headers.go).
SERVICE_HEADERS='add_header X-Content-Type-Options "nosniff" always; add_header Referrer-Policy "strict-origin-when-cross-origin" always; add_header X-Frame-Options "DENY" always; add_header Cross-Origin-Opener-Policy "same-origin-allow-popups" always; add_header Permissions-Policy "camera=(), microphone=(), geolocation=(), payment=(), usb=()" always; add_header Cache-Control "no-store" always;'
stubs="" i=0
SSE_PADDING=$(printf '%03000d' 0)   # a 3,000-byte comment: 20 s at the stub's limit_rate
for svc in $(routes_parse | awk '$3 != "web" { print $3 }' | sort -u); do
  i=$((i + 1)); port=$((base + i))
  port_busy "$port" && die "port $port is in use (set ROUTES_TEST_PORT)"
  var=${svc^^}_PORT; export "${var//-/_}=$port"
  # The stub echoes the request id it received, to check the proxy headers, and sends the
  # security headers and Cache-Control like the real services (httpserver/headers.go).
  # /api/sesion/dev stands for the dev chooser page with its own CSP; .../error for an API error;
  # .../down for a service that drops the connection (nginx answers its own 502).
  # /api/eventos/lento stands for scoring's event stream (services/scoring/internal/live): its
  # first bytes at once, with X-Accel-Buffering: no as scoring sends it, then a trickle that
  # lasts well past the check (limit_rate: 100 bytes/s after the first KiB).
  # shellcheck disable=SC1078,SC1079  # one string over five lines, on purpose
  # It takes bodies up to 4m, like a service whose limit is above nginx's (the front's must refuse).
  stubs+="server { listen 127.0.0.1:$port; client_max_body_size 4m; location / { $SERVICE_HEADERS add_header X-Got-Request-Id \$http_x_request_id always; add_header X-Got-Forwarded-Prefix \"[\$http_x_forwarded_prefix]\" always; return 200 \"$svc\"; }
    location = /api/sesion/dev { $SERVICE_HEADERS add_header Content-Security-Policy \"default-src 'none'\" always; return 200 \"$svc\"; }
    location = /api/eventos/lento { $SERVICE_HEADERS add_header X-Accel-Buffering no always; default_type text/event-stream; limit_rate_after 1k; limit_rate 100; return 200 \"retry: 3000\n\n: $SSE_PADDING\n\n\"; }
    location ~ /error\$ { $SERVICE_HEADERS default_type application/json; return 404 '{\"error\":\"no_encontrado\"}'; }
    location ~ /down\$ { return 444; } }"$'\n'
done

WEB_DIST=$dir/dist LISTEN_PORT=$base "$ROOT/dev/nginx-routes.sh" >"$dir/site.conf"
echo "$stubs" >>"$dir/site.conf"
nginx_start "$dir"

fail=0 n=0
check() {   # check PATH EXPECTED
  local got
  got=$(curl -s --max-time 5 "http://127.0.0.1:$base$1" || true)
  n=$((n + 1))
  if [ "$got" = "$2" ]; then echo "ok   $1 -> $got" >&2
  else echo "FAIL $1 -> '$got', want '$2'" >&2; fail=$((fail + 1)); fi
}
check /api/jugadores players
check /api/jugadores/a@b.c/apuestas predictions
check /api/jugadores/ predictions
check /api/sesion players
check /api/sesion/dev players
check /api/partidos fixtures
check /api/partidos/3/resultado fixtures
check /api/partidos-sin-jugar fixtures
check /api/partidos-sin-jugar/ fixtures
check /api/torneos fixtures
check /api/torneos/actual fixtures
check '/api/auditoria?pagina=2' fixtures
check '/api/apuestas?partido=1' predictions
check '/api/apuestas/resumen?partido=1' predictions
check '/api/preguntas?torneo=1' predictions
check /api/preguntas/4/respuesta predictions
check /api/preguntas/4/respuestas predictions
check /api/preguntasX web
check /api/torneos/1/preguntas/4/respuesta fixtures
check /api/partidos/7 fixtures
check '/api/puntos?partido=1' scoring
check /api/puntosX web
check /api/posiciones scoring
check '/api/posiciones?pagina=2' scoring
check /api/posiciones/tablero scoring
check '/api/posiciones/filas?desde=11&version=3' scoring
check /api/posiciones/fijados/7 scoring
check /api/resultados scoring
check /api/eventos scoring
check '/api/eventos?ultimo=3' scoring
check /api/eventosX web
check /api/grupos scoring
check /api/grupos/12/posiciones scoring
check /api/grupos/12/tablero scoring
check '/api/grupos/12/filas?desde=11' scoring
check /api/grupos/invitacion/abc scoring
check /api/gruposX web
check /api/posicionesX web
check /api/partidosX web
check /api/torneosX web
check /api/auditoriaX web
check /api web
check / web
check /posiciones web

# Headers: a client's X-Request-Id is passed on; without one, nginx makes one.
n=$((n + 1))
rid=$(curl -s -o /dev/null -D - -H 'X-Request-Id: abc-123' "http://127.0.0.1:$base/api/posiciones" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-got-request-id" { print $2 }')
[ "$rid" = abc-123 ] || { echo "FAIL X-Request-Id passed on: got '$rid'" >&2; fail=$((fail + 1)); }
n=$((n + 1))
rid=$(curl -s -o /dev/null -D - "http://127.0.0.1:$base/api/posiciones" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-got-request-id" { print $2 }')
[[ $rid =~ ^[0-9a-f]{32}$ ]] || { echo "FAIL X-Request-Id generated: got '$rid'" >&2; fail=$((fail + 1)); }

# X-Forwarded-Prefix never reaches a service: gin would put it in front of its redirects.
n=$((n + 1))
got=$(curl -s -o /dev/null -D - -H 'X-Forwarded-Prefix: //evil.example' "http://127.0.0.1:$base/api/partidos/3/" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-got-forwarded-prefix" { print $2 }')
if [ "$got" = '[]' ]; then echo "ok   X-Forwarded-Prefix cleared" >&2
else echo "FAIL X-Forwarded-Prefix reached the service: '$got'" >&2; fail=$((fail + 1)); fi

# Server-Sent Events (GET /api/eventos): nginx passes each event on at once instead of holding
# it in its proxy buffer (scoring sends X-Accel-Buffering: no), and as an event stream. Its
# default proxy_read_timeout (60 s) is well above scoring's heartbeat (15 s), so an idle stream
# stays open.
n=$((n + 1))
curl -sN --max-time 1 -D "$dir/sse-headers" -o "$dir/sse-body" "http://127.0.0.1:$base/api/eventos/lento" || true
first=$(head -c 11 "$dir/sse-body" 2>/dev/null || true)
if [ "$first" = 'retry: 3000' ]; then echo "ok   event stream unbuffered (its first bytes within 1 s)" >&2
else echo "FAIL event stream: '$first' within 1 s, want 'retry: 3000' (nginx buffered it?)" >&2; fail=$((fail + 1)); fi
n=$((n + 1))
grep -qi '^content-type: text/event-stream' "$dir/sse-headers" || { echo "FAIL event stream: no Content-Type: text/event-stream" >&2; fail=$((fail + 1)); }

# Security headers on every kind of answer, each exactly once (the services send them too, and
# nginx must not pass theirs on besides its own): the web's CSP on the app's pages and assets
# (found or not), never on the API (the dev chooser keeps exactly its own).
headers_of() { local path=$1; shift; curl -s -o /dev/null -D - --max-time 5 "$@" "http://127.0.0.1:$base$path" | tr -d '\r'; }
check_headers() {   # check_headers PATH STATUS CSP [CURL ARGS...]   (CSP: web, own or none)
  local h status csp want
  h=$(headers_of "$1" "${@:4}"); n=$((n + 1))
  status=$(awk 'NR == 1 { print $2 }' <<<"$h")
  local problems=()
  [ "$status" = "$2" ] || problems+=("status $status, want $2")
  for want in 'x-content-type-options: nosniff' 'referrer-policy: strict-origin-when-cross-origin' \
              'x-frame-options: DENY' 'cross-origin-opener-policy: same-origin-allow-popups' 'permissions-policy: camera=()'; do
    grep -qiF "$want" <<<"$h" || problems+=("no '$want'")
  done
  local name count
  for name in x-content-type-options referrer-policy x-frame-options cross-origin-opener-policy permissions-policy; do
    count=$(grep -ci "^$name:" <<<"$h" || true)
    [ "$count" -eq 1 ] || problems+=("$name $count times, want once")
  done
  count=$(grep -ci '^cache-control:' <<<"$h" || true)
  [ "$count" -le 1 ] || problems+=("cache-control $count times")
  csp=$(grep -i '^content-security-policy:' <<<"$h" || true)
  case $3 in
    web) grep -q "frame-ancestors 'none'" <<<"$csp" && [ "$(wc -l <<<"$csp")" -eq 1 ] || problems+=("CSP '$csp', want the web's") ;;
    own) [ "$csp" = "Content-Security-Policy: default-src 'none'" ] || problems+=("CSP '$csp', want only the page's own") ;;
    none) [ -z "$csp" ] || problems+=("CSP '$csp' on an API answer") ;;
  esac
  if [ ${#problems[@]} -eq 0 ]; then echo "ok   headers $1 ($2, CSP $3)" >&2
  else echo "FAIL headers $1: ${problems[*]}" >&2; fail=$((fail + 1)); fi
}
check_headers / 200 web
check_headers /posiciones 200 web
check_headers /index.html 200 web
check_headers /assets/app-0123abcd.js 200 web
check_headers /assets/missing.js 404 web
check_headers /api/posiciones 200 none
check_headers /api/partidos/3/error 404 none
check_headers /api/jugadores/a@b.c/apuestas/error 404 none
check_headers /api/sesion/dev 200 own
check_headers /api/partidos/3/down 502 none   # nginx's own error page

# What nginx itself refuses is answered in the API's error shape (apierror.Body), as JSON, with
# the security headers and a request id: a body over its limit (above every service's own, so
# that a body a service could take reaches it), a NUL in the path, a path too long.
head -c $((3 * 1024 * 1024 + 1)) /dev/zero | tr '\0' 'x' >"$dir/too-large.json"
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' 'x' >"$dir/import-size.json"
long_path=/api/partidos/$(head -c 10000 /dev/zero | tr '\0' 'a')
check_json_error() {   # check_json_error PATH STATUS ERROR [CURL ARGS...]
  local path=$1 status=$2 code=$3; shift 3
  local got body rid problems=()
  n=$((n + 1))
  got=$(curl -s --path-as-is -o "$dir/error-body" -D - --max-time 10 "$@" "http://127.0.0.1:$base$path" | tr -d '\r')
  body=$(cat "$dir/error-body")
  [ "$(awk 'NR == 1 { print $2 }' <<<"$got")" = "$status" ] || problems+=("status $(awk 'NR == 1 { print $2 }' <<<"$got"), want $status")
  grep -qi '^content-type: application/json' <<<"$got" || problems+=("not JSON: $(grep -i '^content-type' <<<"$got")")
  rid=$(awk -F': ' 'tolower($1) == "x-request-id" { print $2 }' <<<"$got")
  # nginx writes the body on one line, its keys in this order (no jq here: not a dependency).
  [[ $body =~ ^\{\"error\":\"$code\",\"mensaje\":\"[^\"]+\",\"request_id\":\"([-_.0-9A-Za-z]+)\"\}$ ]] \
    || problems+=("body '${body:0:200}', want {error: $code, mensaje, request_id}")
  [ -n "$rid" ] && [ "${BASH_REMATCH[1]:-}" = "$rid" ] || problems+=("request_id not the X-Request-Id '$rid'")
  if [ ${#problems[@]} -eq 0 ]; then echo "ok   $status $code in JSON: ${path:0:40} $*" >&2
  else echo "FAIL ${path:0:40} $*: ${problems[*]}" >&2; fail=$((fail + 1)); fi
}
check_json_error /api/partidos/importar 413 cuerpo_demasiado_grande -X POST -H 'Content-Type: application/json' --data-binary @"$dir/too-large.json"
check_json_error /api/jugadores/a@b.c/apuestas 413 cuerpo_demasiado_grande -X POST -H 'Content-Type: application/json' --data-binary @"$dir/too-large.json"
# A client's X-Request-Id that could break the JSON is not written into it.
check_json_error /api/sesion 413 cuerpo_demasiado_grande -X POST -H 'X-Request-Id: a"}, "error": "x' --data-binary @"$dir/too-large.json"
check_json_error '/api/partidos/a%00b' 400 datos_invalidos
check_json_error '/api/jugadores/a%00@b.c/apuestas' 400 datos_invalidos -X POST -H 'Content-Type: application/json' -d '{}'
check_json_error '/posiciones%00' 400 datos_invalidos
check_json_error "$long_path" 414 datos_invalidos
check_headers /api/partidos/importar 413 none -X POST --data-binary @"$dir/too-large.json"
check_headers '/api/partidos/a%00b' 400 none --path-as-is
# A body as large as the largest a service takes (a tournament file) reaches the service.
n=$((n + 1))
got=$(curl -s --max-time 10 -X POST -H 'Content-Type: application/json' --data-binary @"$dir/import-size.json" "http://127.0.0.1:$base/api/partidos/importar" || true)
if [ "$got" = fixtures ]; then echo "ok   a 2 MiB body reaches the service" >&2
else echo "FAIL a 2 MiB body: '${got:0:200}', want it passed to fixtures" >&2; fail=$((fail + 1)); fi

# Without a built web app, / serves the placeholder page.
n=$((n + 1))
rm "$dir/dist/index.html"
WEB_DIST=$dir/dist LISTEN_PORT=$base "$ROOT/dev/nginx-routes.sh" >"$dir/site.conf"
echo "$stubs" >>"$dir/site.conf"
nginx_start "$dir"   # reloads, and the reload finishes asynchronously: poll
ok=""
for _ in $(seq 30); do
  if curl -s "http://127.0.0.1:$base/partidos" | grep -q 'not built'; then ok=1; break; fi
  sleep 0.1
done
[ -n "$ok" ] || { echo "FAIL placeholder page without index.html" >&2; fail=$((fail + 1)); }

echo "routes: $((n - fail)) passed, $fail failed" >&2
[ "$fail" -eq 0 ]
