{{/*
Names, labels and the pieces every pod shares. The Go services' Deployment and Service come from
one named template, "prode.goService", at the end of this file.
*/}}

{{/* The four Go services, in the order of the route table and the migrations. */}}
{{- define "prode.goServices" -}}
players fixtures predictions scoring
{{- end }}

{{- define "prode.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The resource name prefix: the release name, plus the chart name unless it contains it. */}}
{{- define "prode.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's resource name. Usage: include "prode.componentName" (list $ "players") */}}
{{- define "prode.componentName" -}}
{{- printf "%s-%s" (include "prode.fullname" (index . 0)) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every resource. Usage: include "prode.labels" (list $ "players") */}}
{{- define "prode.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 }}
{{ include "prode.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: prode
{{- end }}

{{/* Labels that select a component's pods; the NetworkPolicies select by them too. */}}
{{- define "prode.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "prode.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/* A Prode image. Usage: include "prode.image" (list $ .Values.players.image) */}}
{{- define "prode.image" -}}
{{- $root := index . 0 }}{{ $img := index . 1 -}}
{{- $tag := $img.tag | default $root.Values.image.tag | default $root.Chart.AppVersion -}}
{{- if $root.Values.image.registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $root.Values.image.registry) $img.repository $tag }}
{{- else -}}
{{- printf "%s:%s" $img.repository $tag }}
{{- end }}
{{- end }}

{{/*
Pod Security "restricted", pod level: a numeric non-root user (the image's own), and the
runtime's default seccomp profile. Usage: include "prode.podSecurityContext" 65532
*/}}
{{- define "prode.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ . }}
runAsGroup: {{ . }}
fsGroup: {{ . }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Pod Security "restricted", container level, plus a read-only root filesystem. */}}
{{- define "prode.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Scheduling settings every pod shares. */}}
{{- define "prode.scheduling" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Replicas spread over nodes when the scheduler can, never blocking scheduling. */}}
{{- define "prode.topologySpread" -}}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "prode.selectorLabels" . | nindent 8 }}
{{- end }}

{{/* PUBLIC_ORIGIN: publicOrigin, else the first Ingress host (https when TLS is configured). */}}
{{- define "prode.publicOrigin" -}}
{{- if .Values.publicOrigin -}}
{{- .Values.publicOrigin }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.ingress.tls) 0)) (first .Values.ingress.hosts) }}
{{- end }}
{{- end }}

{{/*
The public route table, charts/prode/routes.yaml, as JSON: the Ingress and the HTTPRoute both
read it (include "prode.routes" . | fromJsonArray), so they cannot route differently.
*/}}
{{- define "prode.routes" -}}
{{- $routes := (.Files.Get "routes.yaml" | fromYaml).routes }}
{{- if not $routes }}
{{- fail "routes.yaml has no routes (or is not valid YAML)" }}
{{- end }}
{{- toJson $routes }}
{{- end }}

{{/* How long a replaced Go service pod keeps serving: the preStop sleep, then DRAIN_DELAY. */}}
{{- define "prode.drainSeconds" -}}
{{- add .Values.shutdown.preStopSeconds .Values.shutdown.drainDelaySeconds }}
{{- end }}

{{/* The grace period: preStop sleep + drain + in-flight requests + 5 s of margin. */}}
{{- define "prode.gracePeriod" -}}
{{- $s := .Values.shutdown -}}
{{- add $s.preStopSeconds $s.drainDelaySeconds $s.shutdownTimeoutSeconds 5 }}
{{- end }}

{{/* Secret names: the chart's own, or the existing one the values name. */}}
{{- define "prode.sessionSecret" -}}
{{- .Values.session.existingSecret | default (include "prode.componentName" (list . "session")) }}
{{- end }}
{{- define "prode.googleSecret" -}}
{{- .Values.auth.google.existingSecret | default (include "prode.componentName" (list . "google")) }}
{{- end }}
{{- define "prode.databaseSecret" -}}
{{- .Values.externalDatabase.existingSecret | default (include "prode.componentName" (list . "database")) }}
{{- end }}
{{/*
Whether a Go service uses Redis: scoring for the standings cache and live events, players and
scoring for the rate limits their replicas share. Fixtures and predictions do not.
Usage: include "prode.usesRedis" (list $ "players") -> "true" or ""
*/}}
{{- define "prode.usesRedis" -}}
{{- if has (index . 1) (list "players" "scoring") }}true{{ end -}}
{{- end }}

{{- define "prode.redisPasswordSecret" -}}
{{- .Values.redis.existingSecret | default (include "prode.componentName" (list . "redis-password")) }}
{{- end }}
{{/* The password the chart makes for the bundled Redis (base64), made once and kept. */}}
{{- define "prode.redisPassword" -}}
{{- include "prode.keptSecret" (dict "root" . "secret" (include "prode.redisPasswordSecret" .) "key" "password" "new" (randAlphaNum 32)) }}
{{- end }}
{{/* The data of the chart's session Secret. */}}
{{- define "prode.sessionSecretData" -}}
{{- if .Values.session.key }}
session-key: {{ .Values.session.key | b64enc }}
{{- else }}
session-key: {{ include "prode.keptSecret" (dict "root" . "secret" (include "prode.componentName" (list . "session")) "key" "session-key" "new" (randBytes 32)) }}
{{- end }}
{{- with .Values.session.previousKey }}
session-key-previous: {{ . | b64enc }}
{{- end }}
{{- end }}
{{/* The data of the chart's Google Secret, from auth.google's values. */}}
{{- define "prode.googleSecretData" -}}
client-id: {{ .Values.auth.google.clientId | b64enc }}
client-secret: {{ .Values.auth.google.clientSecret | b64enc }}
{{- end }}
{{/*
A service role's password for the bundled PostgreSQL (base64), made once and kept.
Usage: include "prode.databasePassword" (list $ "players")
*/}}
{{- define "prode.databasePassword" -}}
{{- $root := index . 0 -}}
{{- include "prode.keptSecret" (dict "root" $root "secret" (include "prode.componentName" (list $root "postgresql")) "key" (printf "%s-password" (index . 1)) "new" (randAlphaNum 32)) }}
{{- end }}
{{- define "prode.redisSecret" -}}
{{- .Values.externalRedis.existingSecret | default (include "prode.componentName" (list . "redis-url")) }}
{{- end }}
{{- define "prode.migrationsSecret" -}}
{{- .Values.migrations.existingSecret | default (include "prode.componentName" (list . "migrations")) }}
{{- end }}
{{- define "prode.googleConfigured" -}}
{{- if or .Values.auth.google.existingSecret .Values.auth.google.clientId }}true{{ end }}
{{- end }}

{{/*
checksum/secrets of a Go service's pods: every Secret key the pod reads, and nothing else, so a
changed key rolls exactly its readers (a new Google client secret rolls players alone, one
service's database URL that service alone). A pod reads its Secrets only at start, so after
`kubectl apply` of a changed Secret, the next `helm upgrade` changes this annotation and rolls
the pods. The chart's own Secrets count as rendered (the same helpers make them), not looked up:
a value changed in the release must count in the same upgrade, and a lookup would differ between
the install (nothing there yet) and the first upgrade, rolling the pods for nothing. The
operator's Secrets count as they are in the cluster now (lookup; nothing under `helm template`).
These keys are the ones prode.goService's env reads: the chart tests change each one and require
that exactly the pods whose env names it roll.
Usage: include "prode.secretsChecksum" (list $ "players")
*/}}
{{- define "prode.secretsChecksum" -}}
{{- $root := index . 0 }}{{ $name := index . 1 }}{{ $v := $root.Values -}}
{{- $parts := list -}}
{{- /* Every service verifies sessions. */ -}}
{{- with $v.session.existingSecret -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root . "session-key" "session-key-previous")) -}}
{{- else -}}
{{- $parts = append $parts (include "prode.sessionSecretData" $root) -}}
{{- end -}}
{{- /* Its own database role: its password, or its whole URL. */ -}}
{{- if $v.postgresql.enabled -}}
{{- $parts = append $parts (include "prode.databasePassword" (list $root $name)) -}}
{{- else if has $name (include "prode.pgbouncerServices" $root | splitList " ") -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root $v.pgbouncer.existingSecret (printf "%s-password" $name))) -}}
{{- else if $v.externalDatabase.existingSecret -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root $v.externalDatabase.existingSecret (printf "%s-database-url" $name))) -}}
{{- else -}}
{{- $parts = append $parts (index $v.externalDatabase.urls $name | b64enc) -}}
{{- end -}}
{{- if and (eq $name "players") (include "prode.googleConfigured" $root) -}}
{{- with $v.auth.google.existingSecret -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root . "client-id" "client-secret")) -}}
{{- else -}}
{{- $parts = append $parts (include "prode.googleSecretData" $root) -}}
{{- end -}}
{{- end -}}
{{- if include "prode.usesRedis" (list $root $name) -}}
{{- if $v.redis.enabled -}}
{{- with $v.redis.existingSecret -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root . "password")) -}}
{{- else -}}
{{- $parts = append $parts (include "prode.redisPassword" $root) -}}
{{- end -}}
{{- else -}}
{{- with $v.externalRedis.existingSecret -}}
{{- $parts = append $parts (include "prode.operatorSecretKeys" (list $root . "redis-url")) -}}
{{- else -}}
{{- $parts = append $parts ($v.externalRedis.url | b64enc) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- join "\n" $parts | sha256sum }}
{{- end }}

{{/*
Keys of an operator's Secret as they are in the cluster now (lookup; nothing under `helm
template`), as JSON: toJson sorts the keys, so equal values always sum the same. For the
checksum/secrets of the pods that read those keys.
Usage: include "prode.operatorSecretKeys" (list $ NAME KEY...)
*/}}
{{- define "prode.operatorSecretKeys" -}}
{{- $root := index . 0 }}{{ $secret := index . 1 -}}
{{- $data := get (lookup "v1" "Secret" $root.Release.Namespace $secret | default dict) "data" | default dict -}}
{{- $values := dict -}}
{{- range $key := slice . 2 }}{{ $_ := set $values $key (get $data $key) }}{{ end -}}
{{- dict $secret $values | toJson }}
{{- end }}

{{/*
Generated Secrets (the session key, the bundled PostgreSQL's passwords) are kept by `helm
uninstall` while the bundled PostgreSQL keeps its data: the data directory was initialised with
that superuser password, so a later install on the same PersistentVolumeClaim must find it
again (prode.keptSecret reuses it, and Helm adopts the kept Secret, which still carries this
release's ownership annotations). The sessions in that database stay valid with the same key.
*/}}
{{- define "prode.keepGenerated" -}}
{{- if and .Values.postgresql.enabled .Values.postgresql.persistence.enabled }}true{{ end }}
{{- end }}

{{/*
A generated secret value that survives upgrades: the value already in the cluster's Secret when
there is one (lookup), else a new one. Returns it base64-encoded, for a Secret's data.
Each value is asked for more than once in a release (by its Secret, and again by each pod's
checksum/secrets), so a new value is made once and noted on the render's root, which Helm shares
between all of a chart's templates: otherwise, at install, the checksums would be of other
random values than the Secrets, and the first `helm upgrade` would roll every pod for nothing.
Usage: include "prode.keptSecret" (dict "root" $ "secret" NAME "key" KEY "new" (randAlphaNum 32))
*/}}
{{- define "prode.keptSecret" -}}
{{- if not (hasKey .root "prodeGeneratedSecrets") }}{{ $_ := set .root "prodeGeneratedSecrets" dict }}{{ end -}}
{{- $made := .root.prodeGeneratedSecrets -}}
{{- $id := printf "%s/%s" .secret .key -}}
{{- if not (hasKey $made $id) -}}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace .secret -}}
{{- if and $existing $existing.data (hasKey $existing.data .key) -}}
{{- $_ := set $made $id (index $existing.data .key) -}}
{{- else -}}
{{- $_ := set $made $id (.new | b64enc) -}}
{{- end -}}
{{- end -}}
{{- index $made $id }}
{{- end }}

{{/*
The Go services that connect through PgBouncer when pgbouncer.enabled ("" when it is off): all
but scoring. scoring's outbox listener needs a session of its own (LISTEN does not survive
transaction pooling), and its main gives the pool and the listener the same DATABASE_URL.
*/}}
{{- define "prode.pgbouncerServices" -}}
{{- if .Values.pgbouncer.enabled }}players fixtures predictions{{ end }}
{{- end }}

{{/*
How long a replaced PgBouncer pod keeps serving before its safe shutdown: its clients' pgx pools
close every connection older than pgbouncer.clientLifetimeSeconds (plus up to 5 s of jitter) when
it is released, or at the pool's next health check (every 5 s, platform/postgres) when it sits
idle, and reconnect through the Service to the pods that are not going, so by then no client is
left on it and nobody sees the shutdown; then shutdown.preStopSeconds of margin for the
endpoints to forget it (a connection opened before the node's proxy rules do lands on it).
*/}}
{{- define "prode.pgbouncerDrainSeconds" -}}
{{- add .Values.pgbouncer.clientLifetimeSeconds 5 5 .Values.shutdown.preStopSeconds }}
{{- end }}

{{/* The keys of the Secret PgBouncer and its clients read the roles' passwords from. */}}
{{- define "prode.pgbouncerPasswordKeys" -}}
{{- range $i, $name := include "prode.pgbouncerServices" . | splitList " " }}{{ if $i }} {{ end }}{{ $name }}-password{{ end }}
{{- end }}

{{/* That Secret: the bundled PostgreSQL's generated one, or the operator's. */}}
{{- define "prode.pgbouncerPasswordSecret" -}}
{{- if .Values.postgresql.enabled }}{{ include "prode.componentName" (list . "postgresql") }}{{ else }}{{ .Values.pgbouncer.existingSecret }}{{ end }}
{{- end }}

{{/* The database's name, as PgBouncer serves it and connects to it. */}}
{{- define "prode.databaseName" -}}
{{- if .Values.postgresql.enabled }}{{ .Values.postgresql.database }}{{ else }}{{ .Values.pgbouncer.database.name }}{{ end }}
{{- end }}

{{/*
DATABASE_URL of a service, as its own role: through PgBouncer when the service is behind it,
else straight to PostgreSQL (prode.directDatabaseEnv). Through PgBouncer (transaction pooling),
pgx runs every query in exec mode, one round trip with the parameters typed by the server, so
no prepared statement has to outlive a transaction: PgBouncer 1.18 may give the next one another
server connection. The password goes in PGPASSWORD, which pgx reads when the URL has none: any
character is then fine, as it is in PgBouncer's auth file. A client gets 10 s to log in to
PgBouncer (connect_timeout; 5 s straight to PostgreSQL, platform/postgres): PgBouncer answers a
login itself, without PostgreSQL, so a slow one means a pod or PgBouncer short of CPU, not an
outage (a PgBouncer without endpoints refuses at once), and every client logs in again each
clientLifetimeSeconds in the middle of a request. At 2 s, the cluster test's services replaced
under 150 concurrent requests timed out in the SCRAM handshake 2 times in 106,004 requests (503).
Usage: include "prode.databaseEnv" (list $ "players")
*/}}
{{- define "prode.databaseEnv" -}}
{{- $root := index . 0 }}{{ $name := index . 1 -}}
{{- if has $name (include "prode.pgbouncerServices" $root | splitList " ") }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "prode.pgbouncerPasswordSecret" $root }}
      key: {{ $name }}-password
- name: DATABASE_URL
  value: {{ printf "postgres://prode_%s@%s:6432/%s?sslmode=disable&connect_timeout=10&default_query_exec_mode=exec&pool_max_conn_lifetime=%ds&pool_max_conn_lifetime_jitter=5s" $name (include "prode.componentName" (list $root "pgbouncer")) (include "prode.databaseName" $root) (int $root.Values.pgbouncer.clientLifetimeSeconds) | quote }}
{{- else }}
{{- include "prode.directDatabaseEnv" . }}
{{- end }}
{{- end }}

{{/*
DATABASE_URL straight to PostgreSQL, as the service's own role. With the bundled PostgreSQL the
URL is assembled by Kubernetes from the generated password ($(DB_PASSWORD) expands the variable
defined before it).
Usage: include "prode.directDatabaseEnv" (list $ "fixtures")
*/}}
{{- define "prode.directDatabaseEnv" -}}
{{- $root := index . 0 }}{{ $name := index . 1 -}}
{{- if $root.Values.postgresql.enabled }}
- name: DB_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "prode.componentName" (list $root "postgresql") }}
      key: {{ $name }}-password
- name: DATABASE_URL
  value: {{ printf "postgres://prode_%s:$(DB_PASSWORD)@%s:5432/%s?sslmode=disable" $name (include "prode.componentName" (list $root "postgresql")) $root.Values.postgresql.database | quote }}
{{- else }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "prode.databaseSecret" $root }}
      key: {{ $name }}-database-url
{{- end }}
{{- end }}

{{/*
One Go service: its Deployment and its Service. The API listens on 8080 (behind the Ingress),
the admin port 9090 serves /healthz, /readyz and /metrics (never routed by the Ingress).
Usage: include "prode.goService" (list $ "players")
*/}}
{{- define "prode.goService" -}}
{{- $root := index . 0 }}{{ $name := index . 1 }}{{ $v := index $root.Values $name -}}
{{- $fullname := include "prode.componentName" (list $root $name) -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "prode.labels" (list $root $name) | nindent 4 }}
spec:
  {{- if not $v.autoscaling.enabled }}
  replicas: {{ $v.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  # A new pod must be ready before an old one goes: the service keeps its capacity throughout.
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  # The pod a new one replaces keeps its database pool while it drains (preStop, then
  # DRAIN_DELAY): waiting that long before replacing the next means one drains at a time, which
  # is what the connection budget counts (prode.connections).
  minReadySeconds: {{ include "prode.drainSeconds" $root }}
  selector:
    matchLabels:
      {{- include "prode.selectorLabels" (list $root $name) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "prode.labels" (list $root $name) | nindent 8 }}
      annotations:
        # A changed ConfigMap or Secret rolls the pods (they read them only at start), the
        # operator's own Secrets included: see prode.secretsChecksum.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        checksum/secrets: {{ include "prode.secretsChecksum" (list $root $name) }}
        {{- with $root.Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      # The services never call the Kubernetes API.
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ include "prode.gracePeriod" $root }}
      securityContext:
        {{- include "prode.podSecurityContext" 65532 | nindent 8 }}
      {{- include "prode.topologySpread" (list $root $name) | nindent 6 }}
      {{- with include "prode.scheduling" $root | trim }}{{ . | nindent 6 }}{{ end }}
      containers:
        - name: {{ $name }}
          image: {{ include "prode.image" (list $root $v.image) }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          command: ["/usr/local/bin/{{ $name }}"]
          ports:
            - {name: http, containerPort: 8080, protocol: TCP}
            - {name: admin, containerPort: 9090, protocol: TCP}
          envFrom:
            - configMapRef:
                name: {{ include "prode.componentName" (list $root "config") }}
          env:
            - name: DB_MAX_CONNS
              value: {{ $v.dbMaxConns | quote }}
            # The container's memory limit, in bytes: the Go runtime keeps 85 % of it as its soft
            # limit (platform/service/runtime.go) and collects garbage harder near it instead of
            # growing past the container's limit and being killed (scoring ranking a snapshot of a
            # large table beside the ones it keeps). Not GOMEMLIMIT itself: a soft limit at the
            # whole limit leaves nothing for what it overshoots or does not count.
            - name: MEMORY_LIMIT
              valueFrom:
                resourceFieldRef:
                  resource: limits.memory
            - name: SESSION_KEY
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.sessionSecret" $root }}
                  key: session-key
            # Verifies (never signs) sessions during a key rotation; absent is fine.
            - name: SESSION_KEY_PREVIOUS
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.sessionSecret" $root }}
                  key: session-key-previous
                  optional: true
            {{- include "prode.databaseEnv" (list $root $name) | trim | nindent 12 }}
            {{- if eq $name "players" }}
            - name: DEV_LOGIN
              value: {{ $root.Values.auth.devLogin | quote }}
            {{- if include "prode.googleConfigured" $root }}
            - name: GOOGLE_CLIENT_ID
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.googleSecret" $root }}
                  key: client-id
            - name: GOOGLE_CLIENT_SECRET
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.googleSecret" $root }}
                  key: client-secret
            {{- end }}
            {{- end }}
            {{- if include "prode.usesRedis" (list $root $name) }}
            {{- if $root.Values.redis.enabled }}
            # The password apart from the URL (platform/cache.Connect), as PGPASSWORD: any
            # character stands in it, an operator's own password (redis.existingSecret) too.
            - name: REDIS_PASSWORD
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.redisPasswordSecret" $root }}
                  key: password
            - name: REDIS_URL
              value: {{ printf "redis://%s:6379/0" (include "prode.componentName" (list $root "redis")) | quote }}
            {{- else }}
            - name: REDIS_URL
              valueFrom:
                secretKeyRef:
                  name: {{ include "prode.redisSecret" $root }}
                  key: redis-url
            {{- end }}
            - name: REDIS_PREFIX
              value: {{ $root.Values.scoring.redisPrefix | quote }}
            {{- end }}
            {{- if eq $name "scoring" }}
            - name: SCORING_KNOCKOUT
              value: {{ $v.knockout | quote }}
            - name: POLL_INTERVAL
              value: {{ $v.pollInterval | quote }}
            - name: LIVE_MAX_STREAMS
              value: {{ printf "%d" (int $v.liveMaxStreams) | quote }}
            - name: GRUPOS_MAX_POR_JUGADOR
              value: {{ printf "%d" (int $v.grupos.maxPorJugador) | quote }}
            - name: GRUPOS_MAX_MIEMBROS
              value: {{ printf "%d" (int $v.grupos.maxMiembros) | quote }}
            {{- end }}
            {{- range $key, $value := $v.extraEnv }}
            - name: {{ $key }}
              value: {{ $value | quote }}
            {{- end }}
          # Startup: up to 60 s to listen. Liveness: the process answers (a PostgreSQL outage
          # never restarts a pod). Readiness: fails only while draining after SIGTERM, which two
          # probes 2 s apart see within 4 s, inside DRAIN_DELAY (5 s). One probe that times out
          # on a busy node does not take the pod out of its Service: with a threshold of 1, a
          # pod answering requests left it for 5 s at every slow probe, and at the peak of a
          # rolling update those gaps can leave a Service only its terminating pods.
          startupProbe:
            httpGet: {path: /healthz, port: admin}
            periodSeconds: 2
            failureThreshold: 30
            timeoutSeconds: 2
          livenessProbe:
            httpGet: {path: /healthz, port: admin}
            periodSeconds: 10
            failureThreshold: 3
            timeoutSeconds: 2
          readinessProbe:
            httpGet: {path: /readyz, port: admin}
            periodSeconds: 2
            failureThreshold: 2
            timeoutSeconds: 2
          # Keep serving while the endpoints and the ingress forget this pod; then SIGTERM.
          lifecycle:
            preStop:
              sleep:
                seconds: {{ $root.Values.shutdown.preStopSeconds }}
          resources:
            {{- toYaml $v.resources | nindent 12 }}
          securityContext:
            {{- include "prode.containerSecurityContext" . | nindent 12 }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullname }}
  labels:
    {{- include "prode.labels" (list $root $name) | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "prode.selectorLabels" (list $root $name) | nindent 4 }}
  ports:
    - {name: http, port: 80, targetPort: http, protocol: TCP}
    - {name: admin, port: 9090, targetPort: admin, protocol: TCP}
{{- end }}
