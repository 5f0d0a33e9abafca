#!/usr/bin/env bash
# Prints the nginx http-level config (upstreams + one server) that routes like the chart's Ingress,
# generated from the route table charts/prode/routes.yaml (or the file given as $1).
#
# Env: <SERVICE>_PORT for every service in the table but web (PLAYERS_PORT, FIXTURES_PORT, ...),
#      WEB_DIST (static files for the web service; a placeholder page when it has no index.html),
#      LISTEN_PORT (default 8080; nginx listens on the loopback only).
#
# Kubernetes Ingress semantics in nginx terms:
#   Exact p            -> location = p
#   Prefix p (p != /)  -> location = p  and  location ^~ p/   (matches by path element, so
#                         /api/partidos never takes /api/partidos-sin-jugar; ^~ beats regexes)
#   Prefix /           -> location /
#   Exact p and Prefix p -> the Exact takes p itself, the Prefix only p/...
# shellcheck source=dev/lib.sh
source "$(dirname "$0")/lib.sh"

routes=$(routes_parse "${1:-}")
WEB_DIST=${WEB_DIST:-$ROOT/web/dist}
LISTEN_PORT=${LISTEN_PORT:-8080}

declare -A exact=()
while read -r path type svc; do
  if [ "$type" = Exact ]; then exact[$path]=1; fi
done <<<"$routes"

# The security headers of docker/nginx-web.conf but the CSP, on every API answer (JSON, errors,
# nginx's own 502/504) and the placeholder page. No CSP here: the API sends JSON, and the dev
# account chooser (/api/sesion/dev) sends its own CSP, which a second one would narrow.
# `always`: on error statuses too. dev/test-routes.sh checks each kind of answer.
API_HEADERS='add_header X-Content-Type-Options "nosniff" always; add_header Referrer-Policy "strict-origin-when-cross-origin" always; add_header X-Frame-Options "DENY" always; add_header Cross-Origin-Opener-Policy "same-origin-allow-popups" always; add_header Permissions-Policy "camera=(), microphone=(), geolocation=(), payment=(), usb=()" always;'
# The services send the same headers themselves (services/platform/httpserver/headers.go; its
# tests check the values equal these), because on Kubernetes the ingress adds none. Here nginx
# drops theirs and adds its own, so that each header comes exactly once, on nginx's own error
# pages too (a service that is down).
HIDE_SERVICE_HEADERS='proxy_hide_header X-Content-Type-Options; proxy_hide_header Referrer-Policy; proxy_hide_header X-Frame-Options; proxy_hide_header Cross-Origin-Opener-Policy; proxy_hide_header Permissions-Policy;'

# What a location does for a service.
handler() {
  if [ "$1" != web ]; then
    echo "proxy_pass http://$1; $HIDE_SERVICE_HEADERS $API_HEADERS"
  elif [ -f "$WEB_DIST/index.html" ]; then
    echo "root $WEB_DIST; try_files \$uri /index.html;"   # SPA: unknown paths get the app
  else
    echo "$API_HEADERS default_type text/html; return 200 '<!doctype html><meta charset=utf-8><title>Prode</title><h1>Prode</h1><p>The web app is not built (no $WEB_DIST/index.html). The API is up under /api/.</p>';"
  fi
}

# Ingress-style request id: keep the client's X-Request-Id, else make one. Only an id the
# services would keep too (httpserver.validRequestID): nginx writes it into its own JSON errors.
echo 'map $http_x_request_id $prode_request_id { "~^[-_.0-9A-Za-z]{1,64}$" $http_x_request_id; default $request_id; }'

# nginx's own refusals in the API's error shape (services/platform/apierror: error, mensaje,
# request_id), for what nginx refuses before a service sees it: a body over
# client_max_body_size (413), a request it cannot parse, such as a NUL (%00) in the path (400),
# a path or headers too long (414, 494). error_page sends them to these internal locations; a
# named location would not do: a request refused while nginx reads its first line has no URI
# to carry there. dev/test-routes.sh checks them.
json_error() {   # json_error STATUS ERROR MENSAJE
  local body="{\"error\":\"$2\",\"mensaje\":\"$3\",\"request_id\":\"\$prode_request_id\"}\\n"
  echo "  location = /_prode-error/$1 { internal; $API_HEADERS add_header Cache-Control \"no-store\" always; add_header X-Request-Id \$prode_request_id always; default_type \"application/json; charset=utf-8\"; return $1 '$body'; }"
}

while IFS= read -r svc; do
  var=${svc^^}_PORT; var=${var//-/_}
  [ -n "${!var:-}" ] || die "nginx-routes: $var is not set (port of service $svc)"
  echo "upstream $svc { server 127.0.0.1:${!var}; keepalive 8; }"
done < <(awk '$3 != "web" { print $3 }' <<<"$routes" | sort -u)

echo "server {"
echo "  listen 127.0.0.1:$LISTEN_PORT;"
# Browsers and Node may try localhost as ::1 first.
if grep -qw lo /proc/net/if_inet6 2>/dev/null; then echo "  listen [::1]:$LISTEN_PORT;"; fi
cat <<'EOF'
  server_name _;
  # Above the largest body a service takes (a tournament file, 2 MiB: fixtures' ImportMaxBody),
  # so that the services judge every body they could accept and refuse one over their own limit
  # (16 KiB on most routes) with their JSON 413; nginx refuses only beyond, in JSON too.
  client_max_body_size 3m;
  error_page 400 494 /_prode-error/400;
  error_page 413 /_prode-error/413;
  error_page 414 /_prode-error/414;
  proxy_http_version 1.1;
  proxy_set_header Connection "";
  proxy_set_header Host $http_host;
  # The client address (sign-in rate limit): the services take the X-Forwarded-For entry
  # TRUSTED_PROXY_HOPS (default 1: this nginx) from the right. Overwriting leaves exactly that
  # one entry, the address nginx saw, like ingress-nginx's default; whatever the client sent is
  # dropped.
  proxy_set_header X-Forwarded-For $remote_addr;
  proxy_set_header X-Forwarded-Proto $scheme;
  proxy_set_header X-Request-Id $prode_request_id;
  # gin puts X-Forwarded-Prefix in front of its redirects' Location: a client's must never
  # reach a service (the services drop it too: httpserver/forwardedprefix.go).
  proxy_set_header X-Forwarded-Prefix "";
EOF
json_error 400 datos_invalidos "La solicitud no es válida."
json_error 413 cuerpo_demasiado_grande "Los datos enviados son demasiado grandes."
json_error 414 datos_invalidos "La dirección de la solicitud es demasiado larga."
while read -r path type svc; do
  h=$(handler "$svc")
  if [ "$type" = Exact ]; then
    echo "  location = $path { $h }"
  elif [ "$path" = / ] && [ "$svc" = web ] && [ -f "$WEB_DIST/index.html" ]; then
    # The same serving rules (SPA fallback, caching, security headers) as the web pod.
    echo "  root $WEB_DIST;"
    echo "  include $ROOT/docker/nginx-web.conf;"
  elif [ "$path" = / ]; then
    echo "  location / { $h }"
  else
    path=${path%/}
    [ -n "${exact[$path]:-}" ] || echo "  location = $path { $h }"
    echo "  location ^~ $path/ { $h }"
  fi
done <<<"$routes"
echo "}"
