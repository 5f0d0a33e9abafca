{{/* Peers and egress rules of networkpolicy.yaml. */}}

{{/* A component of this release, in this namespace. Usage: include "prode.np.pod" (list $ "web") */}}
{{- define "prode.np.pod" -}}
podSelector:
  matchLabels:
    {{- include "prode.selectorLabels" . | nindent 4 }}
{{- end }}

{{/*
The ingress controller (or the Gateway's proxy) as peers: its pods by selector, plus the address
ranges of a controller that is not a pod of the cluster (a cloud load balancer sending straight
to pod IPs, such as an AWS ALB in IP mode: its VPC's CIDR).
*/}}
{{- define "prode.np.ingressControllerPeers" -}}
- namespaceSelector:
    {{- toYaml .Values.networkPolicy.ingressController.namespaceSelector | nindent 4 }}
  podSelector:
    {{- toYaml .Values.networkPolicy.ingressController.podSelector | nindent 4 }}
{{- range .Values.networkPolicy.ingressController.ipBlocks }}
- ipBlock: {cidr: {{ . | quote }}}
{{- end }}
{{- end }}

{{- define "prode.np.monitoring" -}}
namespaceSelector:
  {{- toYaml .Values.networkPolicy.monitoring.namespaceSelector | nindent 2 }}
podSelector:
  {{- toYaml .Values.networkPolicy.monitoring.podSelector | nindent 2 }}
{{- end }}

{{/*
To the cluster DNS: its pods by selector, plus addresses of a DNS that is not reached as a pod
(GKE's NodeLocal DNSCache answers on 169.254.20.10 on every node).
*/}}
{{- define "prode.np.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 8 }}
      podSelector:
        {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 8 }}
    {{- range .Values.networkPolicy.dns.ipBlocks }}
    - ipBlock: {cidr: {{ . | quote }}}
    {{- end }}
  ports:
    - {port: 53, protocol: UDP}
    - {port: 53, protocol: TCP}
{{- end }}

{{/* To PostgreSQL: the bundled pod, or the external database's address ranges. */}}
{{- define "prode.np.postgresqlEgress" -}}
{{- if .Values.postgresql.enabled -}}
- to:
    - {{ include "prode.np.pod" (list . "postgresql") | nindent 6 | trim }}
  ports:
    - {port: 5432, protocol: TCP}
{{- else -}}
- to:
    {{- range .Values.networkPolicy.externalDatabaseCIDRs }}
    - ipBlock: {cidr: {{ . | quote }}}
    {{- end }}
  ports:
    - {port: {{ .Values.networkPolicy.externalDatabasePort }}, protocol: TCP}
{{- end }}
{{- end }}

{{/*
A Go service's way to its database: PgBouncer's pods when the service is behind it
(prode.pgbouncerServices), else PostgreSQL. Usage: include "prode.np.databaseEgress" (list $ "players")
*/}}
{{- define "prode.np.databaseEgress" -}}
{{- $root := index . 0 }}{{ $name := index . 1 -}}
{{- if has $name (include "prode.pgbouncerServices" $root | splitList " ") -}}
- to:
    - {{ include "prode.np.pod" (list $root "pgbouncer") | nindent 6 | trim }}
  ports:
    - {port: 6432, protocol: TCP}
{{- else -}}
{{- include "prode.np.postgresqlEgress" $root }}
{{- end }}
{{- end }}

{{/* To Redis (prode.usesRedis): the bundled pod, or the external Redis's address ranges. */}}
{{- define "prode.np.redisEgress" -}}
{{- if .Values.redis.enabled -}}
- to:
    - {{ include "prode.np.pod" (list . "redis") | nindent 6 | trim }}
  ports:
    - {port: 6379, protocol: TCP}
{{- else -}}
- to:
    {{- range .Values.networkPolicy.externalRedisCIDRs }}
    - ipBlock: {cidr: {{ . | quote }}}
    {{- end }}
  ports:
    - {port: {{ .Values.networkPolicy.externalRedisPort }}, protocol: TCP}
{{- end }}
{{- end }}

{{/*
One more policy with the operator's own rules (networkPolicy.extraIngress/extraEgress for every
pod of the release, networkPolicy.perComponent.<component> for one component), as raw
NetworkPolicy rules. Policies add up, so these open exactly what they say on top of the rest.
Usage: include "prode.np.extra" (dict "root" $ "name" NAME "selector" LABELS "ingress" RULES "egress" RULES)
*/}}
{{- define "prode.np.extra" -}}
{{- if or .ingress .egress }}
---
# The operator's own rules (networkPolicy.extraIngress/extraEgress or networkPolicy.perComponent).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ .name }}
  labels:
    {{- include "prode.labels" (list .root "network") | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- toYaml .selector | nindent 6 }}
  policyTypes:
    {{- if .ingress }}
    - Ingress
    {{- end }}
    {{- if .egress }}
    - Egress
    {{- end }}
  {{- with .ingress }}
  ingress:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .egress }}
  egress:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- end }}
