{{/*
Combinations the schema cannot express; each fails the render with what to set. Called once,
from configmap.yaml.
*/}}
{{- define "prode.validate" -}}
{{- $v := .Values -}}
{{- if and $v.auth.devLogin (include "prode.googleConfigured" .) -}}
{{- fail "auth.devLogin cannot be on with a Google client (auth.google.*): the players service refuses both" -}}
{{- end -}}
{{- if not (or $v.auth.devLogin (include "prode.googleConfigured" .)) -}}
{{- fail "set auth.google.clientId and auth.google.clientSecret (or auth.google.existingSecret), or auth.devLogin=true" -}}
{{- end -}}
{{- if and $v.auth.google.clientId (not $v.auth.google.existingSecret) (not $v.auth.google.clientSecret) -}}
{{- fail "auth.google.clientSecret is required with auth.google.clientId" -}}
{{- end -}}
{{- if not $v.postgresql.enabled -}}
{{- if not $v.externalDatabase.existingSecret -}}
{{- range $svc := splitList " " (include "prode.goServices" .) -}}
{{- if not (index $v.externalDatabase.urls $svc) -}}
{{- fail (printf "postgresql.enabled=false: set externalDatabase.existingSecret or externalDatabase.urls.%s" $svc) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if not (or $v.migrations.existingSecret $v.migrations.databaseUrl) -}}
{{- fail "postgresql.enabled=false: set migrations.existingSecret or migrations.databaseUrl (a role that may create roles and schemas)" -}}
{{- end -}}
{{- end -}}
{{- if and (not $v.redis.enabled) (not (or $v.externalRedis.existingSecret $v.externalRedis.url)) -}}
{{- fail "redis.enabled=false: set externalRedis.existingSecret or externalRedis.url" -}}
{{- end -}}
{{- if $v.session.key -}}
{{- if lt (len (b64dec $v.session.key)) 32 -}}
{{- fail "session.key must be base64 of at least 32 bytes (head -c 32 /dev/urandom | base64)" -}}
{{- end -}}
{{- end -}}
{{- if $v.session.previousKey -}}
{{- if $v.session.existingSecret -}}
{{- fail "session.previousKey goes into the chart's own Secret: with session.existingSecret, put it in that Secret as session-key-previous" -}}
{{- end -}}
{{- if lt (len (b64dec $v.session.previousKey)) 32 -}}
{{- fail "session.previousKey must be base64 of at least 32 bytes, like session.key (the services refuse to start otherwise)" -}}
{{- end -}}
{{- end -}}
{{- if and $v.gateway.enabled (not $v.gateway.parentRefs) -}}
{{- fail "gateway.enabled: set gateway.parentRefs to the Gateway (and listener) the HTTPRoute attaches to" -}}
{{- end -}}
{{- if and $v.pgbouncer.enabled (not $v.postgresql.enabled) -}}
{{- if not $v.pgbouncer.database.host -}}
{{- fail "pgbouncer.enabled with an external database: set pgbouncer.database.host (and port, name, sslmode) to where PgBouncer connects" -}}
{{- end -}}
{{- if not $v.pgbouncer.existingSecret -}}
{{- fail (printf "pgbouncer.enabled with an external database: set pgbouncer.existingSecret, a Secret with the keys %s (the roles' passwords)" (include "prode.pgbouncerPasswordKeys" . | splitList " " | join ", ")) -}}
{{- end -}}
{{- end -}}
{{- /* The connection budget: prode.connections says what counts and why. */ -}}
{{- $c := include "prode.connections" . | fromJson -}}
{{- if gt (int $c.total) (int $c.budget) -}}
{{- $fix := "raise max_connections and externalDatabase.maxConnections with it" -}}
{{- if $v.postgresql.enabled }}{{ $fix = "raise postgresql.maxConnections (the chart starts the bundled PostgreSQL with it)" }}{{ end -}}
{{- fail (printf "PostgreSQL connections: at the autoscalers' maxima, plus two pods per Deployment during a rolling update (one starting, one draining), the release may open %d (%s), over the budget of %d (%s). Lower the services' dbMaxConns or autoscaling.maxReplicas, %s, or %s (docs/operations.md, \"PostgreSQL connections\")"
      (int $c.total) (join ", " $c.parts) (int $c.budget) $c.ceiling
      (ternary "lower pgbouncer.poolSize or replicaCount" "turn on pgbouncer.enabled" $v.pgbouncer.enabled) $fix) -}}
{{- end -}}
{{- if and $v.pgbouncer.enabled (gt (int $c.clients) (int $v.pgbouncer.maxClientConn)) -}}
{{- fail (printf "PgBouncer clients: at the autoscalers' maxima, plus two pods per Deployment during a rolling update (one starting, one draining), the services behind PgBouncer may open %d connections (%s), over pgbouncer.maxClientConn %d, which each PgBouncer pod must be able to take alone. Raise pgbouncer.maxClientConn, or lower those services' dbMaxConns or autoscaling.maxReplicas"
      (int $c.clients) (join ", " $c.clientParts) (int $v.pgbouncer.maxClientConn)) -}}
{{- end -}}
{{- end }}
