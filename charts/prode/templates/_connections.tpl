{{/*
The PostgreSQL connection budget (docs/operations.md, "PostgreSQL connections"): every
connection the release's pods may hold at once, against the database's max_connections less a
reserve. prode.validate refuses a render that does not fit; NOTES.txt prints the sum.

What each pod opens, as the code does it:
- a Go service: its pgx pool, which never holds more than DB_MAX_CONNS (dbMaxConns);
- scoring: one more, the outbox listener's own connection (scoring/internal/scoring/consumer.go);
- the hook Jobs, which Helm runs one at a time: migrate holds one connection (golang-migrate
  pins one per schema, one schema after another), fixtures-seed a pool of two.
- the predictions-index CronJob (predictionsIndex.rebuild): `migrate reindex` holds one
  connection, whenever its schedule comes, so beside everything else, a hook Job included.
How many pods: the autoscaler's maxReplicas (replicaCount without one), plus two while a rolling
update runs, since an upgrade may well come at the peak: the new pod it starts (maxSurge: 1),
and the one it replaces, which keeps its pool while it drains. The Deployments wait for that
(minReadySeconds) before replacing the next, so one drains at a time; the reserve covers a drain
that outlasts the wait (requests still in flight).
With PgBouncer, the services behind it reach PostgreSQL only through PgBouncer's pools: each
PgBouncer pod (plus two while it rolls) keeps at most poolSize connections per service role.
Their own pools then count against pgbouncer.maxClientConn instead, all of them at one pod: the
Service spreads connections at random, so nothing keeps them from landing on the same one.

Returns JSON: {"parts": [text, ...], "total": N, "budget": N, "ceiling": text,
"clientParts": [text, ...], "clients": N}.
*/}}
{{- define "prode.connections" -}}
{{- $v := .Values -}}
{{- $pooled := include "prode.pgbouncerServices" . | splitList " " | compact -}}
{{- $parts := list -}}{{- $total := 0 -}}
{{- $clientParts := list -}}{{- $clients := 0 -}}
{{- range $name := splitList " " (include "prode.goServices" .) -}}
{{- $s := index $v $name -}}
{{- $pods := add 2 (ternary $s.autoscaling.maxReplicas $s.replicaCount $s.autoscaling.enabled | int) -}}
{{- $pool := int $s.dbMaxConns -}}
{{- $listener := ternary 1 0 (eq $name "scoring") -}}
{{- if has $name $pooled -}}
{{- $n := mul $pods $pool -}}
{{- $clientParts = append $clientParts (printf "%s %d pods × %d = %d" $name $pods $pool $n) -}}
{{- $clients = add $clients $n -}}
{{- if $listener -}}
{{- $parts = append $parts (printf "%s's listeners %d pods × 1 = %d" $name $pods $pods) -}}
{{- $total = add $total $pods -}}
{{- end -}}
{{- else -}}
{{- $n := mul $pods (add $pool $listener) -}}
{{- if $listener -}}
{{- $parts = append $parts (printf "%s %d pods × (%d + 1 listener) = %d" $name $pods $pool $n) -}}
{{- else -}}
{{- $parts = append $parts (printf "%s %d pods × %d = %d" $name $pods $pool $n) -}}
{{- end -}}
{{- $total = add $total $n -}}
{{- end -}}
{{- end -}}
{{- if $pooled -}}
{{- $b := $v.pgbouncer -}}
{{- $pods := add 2 (int $b.replicaCount) -}}
{{- $n := mul $pods (len $pooled) (int $b.poolSize) -}}
{{- $parts = append $parts (printf "pgbouncer %d pods × %d roles × poolSize %d = %d" $pods (len $pooled) (int $b.poolSize) $n) -}}
{{- $total = add $total $n -}}
{{- end -}}
{{- if $v.fixturesSeed.enabled -}}
{{- $parts = append $parts "hook Jobs 2 (fixtures-seed's pool; migrate holds 1, before it)" -}}
{{- $total = add $total 2 -}}
{{- else -}}
{{- $parts = append $parts "hook Jobs 1 (migrate)" -}}
{{- $total = add $total 1 -}}
{{- end -}}
{{- if $v.predictionsIndex.rebuild -}}
{{- $parts = append $parts "predictions-index CronJob 1" -}}
{{- $total = add $total 1 -}}
{{- end -}}
{{- $db := ternary "postgresql" "externalDatabase" $v.postgresql.enabled -}}
{{- $max := int (index $v $db).maxConnections -}}
{{- $reserved := int (index $v $db).reservedConnections -}}
{{- $ceiling := printf "%s.maxConnections %d less %s.reservedConnections %d" $db $max $db $reserved -}}
{{- dict "parts" $parts "total" $total "budget" (sub $max $reserved) "ceiling" $ceiling
      "clientParts" $clientParts "clients" $clients | toJson -}}
{{- end }}
