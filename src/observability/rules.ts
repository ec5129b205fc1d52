/**
 * The Prometheus rules of shadow readiness, from the configuration (shadow.readyAfter, readyWindow),
 * so that Prometheus's verdict is the report's: `paybridge rules` prints them, and
 * deploy/prometheus/paybridge-rules.yml is their output for the defaults (a test keeps it so, and
 * deploy/kubernetes/prometheusrule.yaml holds the same groups).
 */

/** A Prometheus duration (`1h`, `30m`, `2d`) in milliseconds. */
export function durationMs(duration: string): number {
  const m = /^(\d+)([smhdw])$/.exec(duration);
  if (!m) throw new Error(`not a duration: ${duration}`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
    m[2] as 's' | 'm' | 'h' | 'd' | 'w'
  ];
  return Number(m[1]) * unit;
}

export interface RulesSettings {
  /** Comparisons of answers a route needs, none mismatched (shadow.readyAfter). */
  readyAfter: number;
  /** The window they are counted in, a Prometheus duration (shadow.readyWindow). */
  window: string;
}

/** How long Prometheus keeps a quiet route's verdict: past it (no comparison for so long) the route has no series. */
const VERDICT_MEMORY = '30d';

/** The rules file (YAML) for these settings. */
export function prometheusRules({ readyAfter, window }: RulesSettings): string {
  const seconds = durationMs(window) / 1000;
  return `# Prometheus rules for paybridge. Readiness of a route across any number of gateway replicas, by the
# definition \`paybridge report\` and the live page give (docs/shadow.md): over the window of ${window}
# (shadow.readyWindow) up to the route's newest comparison, a route is MISMATCH when any comparison on
# any replica left a difference unexplained (no noise rule, no acceptance by that replica), READY when
# the replicas together made at least ${readyAfter} comparisons of answers (shadow.readyAfter; a write only
# validated, outcome "validated", is no such evidence) and none was unexplained, VALIDATED when only
# validations were made, COLLECTING otherwise. The window ends at the newest comparison, not at the
# evaluation: a route that stops comparing keeps its verdict (flat counters change nothing) for up to
# ${VERDICT_MEMORY}. The counts come from paybridge_shadow_comparisons_total{route,outcome}; the mismatches from
# each replica's paybridge_shadow_last_unexplained_timestamp_seconds{route,kind} against the newest
# paybridge_shadow_last_comparison_timestamp_seconds{route}, so that an operator's acceptance counts
# (paybridge_shadow_acceptances_total{route} tells the rules one was taken).
# The same groups, for the Prometheus Operator: deploy/kubernetes/prometheusrule.yaml.
groups:
  - name: paybridge-shadow
    rules:
      - record: paybridge:shadow_comparisons:increase${window}
        expr: sum by (route, outcome) (increase(paybridge_shadow_comparisons_total[${window}]))
      # the window's counts while the route compares (a counter moved in the last 2 minutes) ...
      - record: paybridge:shadow_window_comparisons:moving
        expr: paybridge:shadow_comparisons:increase${window} and on (route) (sum by (route) (increase(paybridge_shadow_comparisons_total[2m])) > 0)
      # ... and as its last comparisons left them while it is quiet (counts are whole: increase() extrapolates)
      - record: paybridge:shadow_window_comparisons
        expr: round(last_over_time(paybridge:shadow_window_comparisons:moving[${VERDICT_MEMORY}]))
      # 1: a comparison left unexplained within the window before the route's newest comparison, on any
      # replica; taken while the route's evidence moves (a comparison, an acceptance) and kept while it
      # is still, so a replica restarted after a quiet window (its gauges gone) does not clear it
      - record: paybridge:shadow_route_mismatch:moving
        expr: |
          (
            (max by (route) (paybridge_shadow_last_unexplained_timestamp_seconds) > bool on (route) (max by (route) (paybridge_shadow_last_comparison_timestamp_seconds) - ${seconds}))
              or on (route)
            (0 * max by (route) (paybridge_shadow_last_comparison_timestamp_seconds))
          )
            and on (route)
          (
            (sum by (route) (increase(paybridge_shadow_comparisons_total[2m])) > 0)
              or on (route)
            (sum by (route) (increase(paybridge_shadow_acceptances_total[2m])) > 0)
          )
      - record: paybridge:shadow_route_mismatch
        expr: last_over_time(paybridge:shadow_route_mismatch:moving[${VERDICT_MEMORY}])
      # the window's comparisons of answers, and its validations only (0 where a route has no such series)
      - record: paybridge:shadow_window_answered
        expr: sum by (route) (paybridge:shadow_window_comparisons{outcome!="validated"}) or on (route) (0 * sum by (route) (paybridge:shadow_window_comparisons))
      - record: paybridge:shadow_window_validated
        expr: sum by (route) (paybridge:shadow_window_comparisons{outcome="validated"}) or on (route) (0 * sum by (route) (paybridge:shadow_window_comparisons))
      # the route's state: 0 collecting, 1 ready, 2 mismatch, 3 validated only
      - record: paybridge:shadow_route_state
        expr: |
          2 * paybridge:shadow_route_mismatch
            + on (route)
          (1 - paybridge:shadow_route_mismatch) * on (route)
          (
            (paybridge:shadow_window_answered >= bool ${readyAfter})
              + on (route)
            3 * (paybridge:shadow_window_answered == bool 0) * on (route) (paybridge:shadow_window_validated > bool 0)
          )
      # 1 ready, 0 not
      - record: paybridge:shadow_route_ready
        expr: paybridge:shadow_route_state == bool 1
      - alert: PaybridgeShadowMismatch
        expr: paybridge:shadow_route_mismatch == 1
        labels:
          severity: warning
        annotations:
          summary: "Shadow comparisons of {{ $labels.route }} mismatch"
          description: "The translated call of {{ $labels.route }} answered differently from the legacy one within the readiness window; do not cut it over. paybridge report (or /_paybridge/) names the path kind, the path and both values; an operator may accept a difference that does not matter (POST /_paybridge/accepted)."
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
