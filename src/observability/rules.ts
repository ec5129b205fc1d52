/**
 * The Prometheus rules of shadow readiness, from the configuration (shadow.readyAfter, readyWindow),
 * so that Prometheus's verdict is the report's: `paybridge rules` prints them, and
 * deploy/prometheus/paybridge-rules.yml is their output for the defaults (a test keeps it so, and
 * deploy/kubernetes/prometheusrule.yaml holds the same groups).
 */

export interface RulesSettings {
  /** Comparisons of answers a route needs, none mismatched (shadow.readyAfter). */
  readyAfter: number;
  /** The window they are counted in, a Prometheus duration (shadow.readyWindow). */
  window: string;
}

/** The rules file (YAML) for these settings. */
export function prometheusRules({ readyAfter, window }: RulesSettings): string {
  return `# Prometheus rules for paybridge. Readiness of a route across any number of gateway replicas, computed
# by Prometheus itself from paybridge_shadow_comparisons_total{route,outcome}: a route is ready (1,
# else 0) when its replicas together made at least ${readyAfter} comparisons of answers in the last ${window}
# (shadow.readyAfter; a write only validated, outcome "validated", is no such evidence) and none of
# them was an unexplained mismatch. \`paybridge report\` gives the same verdict from the
# JSONL records. The same groups, for the Prometheus Operator: deploy/kubernetes/prometheusrule.yaml.
groups:
  - name: paybridge-shadow
    rules:
      - record: paybridge:shadow_comparisons:increase${window}
        expr: sum by (route, outcome) (increase(paybridge_shadow_comparisons_total[${window}]))
      # 1 ready, 0 not: enough comparisons (bool) times no mismatch (bool; a route without a mismatch series has none)
      - record: paybridge:shadow_route_ready
        expr: |
          (sum by (route) (paybridge:shadow_comparisons:increase${window}{outcome!="validated"}) >= bool ${readyAfter})
            * on (route)
          (
            (sum by (route) (paybridge:shadow_comparisons:increase${window}{outcome="mismatch"}) == bool 0)
              or on (route)
            (0 * sum by (route) (paybridge:shadow_comparisons:increase${window}{outcome!="validated"}) + 1)
          )
      - alert: PaybridgeShadowMismatch
        expr: sum by (route) (increase(paybridge_shadow_comparisons_total{outcome="mismatch"}[15m])) > 0
        labels:
          severity: warning
        annotations:
          summary: "Shadow comparisons of {{ $labels.route }} mismatch"
          description: "The translated call of {{ $labels.route }} answered differently from the legacy one; do not cut it over. paybridge report --find <request id> shows the differing paths."
      - alert: PaybridgeShadowSendStopped
        expr: max(paybridge_shadow_send_stopped) > 0
        labels:
          severity: critical
        annotations:
          summary: "Shadow send stopped: the candidate is not isolated"
          description: "A resource the primary created was readable from the candidate upstream. Writes are no longer sent to it; fix the candidate configuration."
      - alert: PaybridgeShadowDropping
        expr: sum by (route) (rate(paybridge_shadow_dropped_total[10m])) > 0
        for: 10m
        labels:
          severity: info
        annotations:
          summary: "Shadow comparisons of {{ $labels.route }} are being dropped"
          description: "The comparison queue is full (shadow.queueSize or shadow.queueBytes); lower shadow.sample or raise shadow.concurrency."
      - alert: PaybridgeUpstreamErrors
        expr: sum by (route, code) (rate(paybridge_upstream_errors_total[5m])) > 1
        for: 5m
        labels:
          severity: warning
        annotations:
          summary: "Upstream errors on {{ $labels.route }} ({{ $labels.code }})"
          description: "More than one upstream error a second for five minutes."
  - name: paybridge-migration
    rules:
      # a percentage canary (canary:N%): the share of a route's requests the translation answered, across the replicas
      - record: paybridge:canary_translation_share:rate5m
        expr: sum by (route) (rate(paybridge_canary_requests_total{served="translation"}[5m])) / sum by (route) (rate(paybridge_canary_requests_total[5m]))
      # replicas per configuration in force: one series when every replica took the last change
      - record: paybridge:config_replicas:count
        expr: count by (job, hash) (paybridge_config_info)
      - alert: PaybridgeConfigReloadRefused
        expr: paybridge_config_last_reload_successful == 0
        labels:
          severity: warning
        annotations:
          summary: "A paybridge replica refused its configuration file"
          description: "The last reload on {{ $labels.instance }} did not validate; the replica runs the configuration it had. GET /_paybridge/config names the problem (lastReload.error); fix the ConfigMap."
      - alert: PaybridgeReplicasDiverge
        expr: count by (job) (paybridge:config_replicas:count) > 1
        for: 5m
        labels:
          severity: warning
        annotations:
          summary: "paybridge replicas of {{ $labels.job }} run different configurations"
          description: "For five minutes the replicas have not shown one configuration hash (paybridge_config_info): a ConfigMap change some pods did not take, or a route changed on one replica through the operator API."
      - alert: PaybridgeRestartPending
        expr: max by (job) (paybridge_config_not_applied) > 0
        for: 15m
        labels:
          severity: info
        annotations:
          summary: "paybridge settings wait for a restart"
          description: "The configuration file holds settings a reload cannot apply (the reload's log line names them, as does GET /_paybridge/config): kubectl rollout restart deployment/paybridge applies them."
`;
}
