{{/*
PgBouncer's pgbouncer.ini (pgbouncer.yaml): its ConfigMap, and a checksum on its pods so that a
change rolls them (PgBouncer reads it only at start).
*/}}
{{- define "prode.pgbouncerConfig" -}}
{{- $b := .Values.pgbouncer -}}
[databases]
{{- if .Values.postgresql.enabled }}
{{ .Values.postgresql.database }} = host={{ include "prode.componentName" (list . "postgresql") }} port=5432 dbname={{ .Values.postgresql.database }}
{{- else }}
{{ $b.database.name }} = host={{ $b.database.host }} port={{ $b.database.port }} dbname={{ $b.database.name }}
{{- end }}

[pgbouncer]
listen_addr = *
listen_port = 6432
unix_socket_dir =
; Clients log in as their own role with its password; PgBouncer logs in to PostgreSQL the
; same way (the entrypoint writes the file from the pod's environment).
auth_type = scram-sha-256
auth_file = /run/pgbouncer/userlist.txt
; The only mode that shares connections between transactions. The services keep no session
; state across one: no SET, no session advisory lock, no LISTEN (scoring's listener connects
; directly), temporary tables only ON COMMIT DELETE ROWS, no prepared statement (pgx exec mode).
pool_mode = transaction
; At most this many server connections per role (the pools are per database and user), and
; nothing beyond them: the connection budget counts exactly these.
default_pool_size = {{ int $b.poolSize }}
min_pool_size = 0
reserve_pool_size = 0
max_db_connections = 0
max_client_conn = {{ int $b.maxClientConn }}
; A transaction that waits this long for a server connection ends its client connection (08P01,
; which the services answer 503). Its default, 120 s, is also what a service's connection, open
; on PgBouncer before PostgreSQL went down, waits for each query (measured: 120.2 s, and 10.3 s
; at 10), while new logins are refused at once (server_login_retry).
query_wait_timeout = {{ int $b.queryWaitSeconds }}
; After a failed login to PostgreSQL, PgBouncer refuses new clients at once and tries again
; after this long: its default, 15 s, kept writes failing well after PostgreSQL was back.
server_login_retry = {{ int $b.loginRetrySeconds }}
{{- if .Values.postgresql.enabled }}
server_tls_sslmode = disable
{{- else }}
server_tls_sslmode = {{ $b.database.sslmode }}
server_tls_ca_file = /etc/ssl/certs/ca-certificates.crt
{{- end }}
; Logs on stderr: errors, and every minute the pools' figures. Not each connection: the
; services open and close them as their pools need.
log_connections = 0
log_disconnections = 0
log_pooler_errors = 1
stats_period = 60
{{- end }}
