{{/* Peers and egress rules of networkpolicy.yaml. */}}

{{/* A component of this release, in this namespace. Usage: include "prode.np.pod" (list $ "web") */}}
{{- define "prode.np.pod" -}}
podSelector:
  matchLabels:
    {{- include "prode.selectorLabels" . | nindent 4 }}
{{- end }}

{{- define "prode.np.ingressController" -}}
namespaceSelector:
  {{- toYaml .Values.networkPolicy.ingressController.namespaceSelector | nindent 2 }}
podSelector:
  {{- toYaml .Values.networkPolicy.ingressController.podSelector | nindent 2 }}
{{- end }}

{{- define "prode.np.monitoring" -}}
namespaceSelector:
  {{- toYaml .Values.networkPolicy.monitoring.namespaceSelector | nindent 2 }}
podSelector:
  {{- toYaml .Values.networkPolicy.monitoring.podSelector | nindent 2 }}
{{- end }}

{{- define "prode.np.dnsEgress" -}}
- to:
    - namespaceSelector:
        {{- toYaml .Values.networkPolicy.dns.namespaceSelector | nindent 8 }}
      podSelector:
        {{- toYaml .Values.networkPolicy.dns.podSelector | nindent 8 }}
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

{{/* To Redis (scoring only): the bundled pod, or the external Redis's address ranges. */}}
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
