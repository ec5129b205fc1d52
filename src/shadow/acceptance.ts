/**
 * The live side of the one readiness definition: what each replica exports for the Prometheus rules
 * (the times of its newest comparison and of its newest unexplained one, per route and path kind), and
 * an operator's acceptance of one difference, audited and recorded.
 */
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';
import { redactAt } from '../observability/redact.js';
import { PaybridgeError } from '../errors.js';
import type { AcceptedRecord } from './accepted.js';
import { generalise } from './diff.js';
import type { ShadowLedger, ShadowRecord } from './ledger.js';

/**
 * The gauges the readiness rules read beside the comparison counters: the route's newest comparison
 * and, per path kind, its newest comparison left unexplained (noise and this replica's acceptances
 * applied), in seconds since the epoch. They hold still while a route is quiet, so Prometheus's
 * verdict does too; the rules take the newest across replicas.
 */
export function exportReadiness(
  ledger: ShadowLedger,
  metrics: Metrics,
  routes: Iterable<string>,
): { accepted(this: void, route: string): void } {
  metrics.series(
    'paybridge_shadow_last_comparison_timestamp_seconds',
    'When this replica last compared the route (its newest comparison record), in seconds since the epoch.',
    ['route'],
    function* () {
      for (const [route, r] of ledger.readiness()) yield [{ route }, r.last / 1000];
    },
  );
  metrics.series(
    'paybridge_shadow_last_unexplained_timestamp_seconds',
    'When this replica last compared the route with a difference no noise rule or acceptance explains, by path kind (status class and error code of the legacy answer), in seconds since the epoch.',
    ['route', 'kind'],
    function* () {
      for (const [route, r] of ledger.readiness())
        for (const [kind, at] of r.unexplained) yield [{ route, kind }, at / 1000];
    },
  );
  const acceptances = metrics.counter(
    'paybridge_shadow_acceptances_total',
    'Differences an operator accepted on this replica, by route id: the readiness rules judge the route again.',
    ['route'],
  );
  // from the start at 0, as the comparisons: a series first seen at 1 would show Prometheus no increase
  for (const route of routes) acceptances.inc({ route }, 0);
  return { accepted: (route) => acceptances.inc({ route }) };
}

const ROUTE_ID = /^L\d{1,3}$/;

/**
 * An operator's acceptance: `{route, path, primary?, candidate?, note?}` checked, its values redacted
 * as the records' are (they are matched against recorded values), written as an `accepted` record, and
 * logged as an audit line (who, when, what). Answers the record and how many kept comparisons it explains.
 */
export function acceptDifference(deps: {
  ledger: ShadowLedger;
  emit: (record: ShadowRecord) => void;
  counted: (route: string) => void;
  log: { info(obj: object, msg: string): void };
}) {
  return (body: unknown, by: string): { accepted: AcceptedRecord; explains: number } => {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new PaybridgeError('invalid_request', 'body: expected {route, path, primary, candidate, note?}');
    const input = body as Record<string, unknown>;
    const unknown = Object.keys(input).find((k) => !['route', 'path', 'primary', 'candidate', 'note'].includes(k));
    if (unknown !== undefined)
      throw new PaybridgeError('invalid_request', `${unknown}: unknown field (route, path, primary, candidate, note)`);
    if (typeof input.route !== 'string' || !ROUTE_ID.test(input.route))
      throw new PaybridgeError('invalid_request', 'route: expected a route id such as L6');
    // the report names paths with indexes generalised (refunds[*].amount): that is taken, no other glob
    if (typeof input.path !== 'string' || input.path === '' || input.path.replace(/\[\*\]/g, '').includes('*'))
      throw new PaybridgeError(
        'invalid_request',
        'path: expected the JSON path of one difference as the report names it ($status, refunds[*].amount), no glob',
      );
    if (!('primary' in input) && !('candidate' in input))
      throw new PaybridgeError(
        'invalid_request',
        'primary, candidate: give the two values accepted (leave one out only where that side had none)',
      );
    if (input.note !== undefined && (typeof input.note !== 'string' || input.note.length > 500))
      throw new PaybridgeError('invalid_request', 'note: expected a text of at most 500 characters');
    const difference = redactAt({
      path: input.path,
      ...('primary' in input ? { primary: input.primary } : {}),
      ...('candidate' in input ? { candidate: input.candidate } : {}),
    });
    const record: AcceptedRecord = {
      type: 'accepted',
      time: isoTime(),
      route: input.route,
      ...difference,
      by,
      ...(input.note !== undefined ? { note: input.note } : {}),
    };
    deps.emit(record);
    deps.counted(record.route);
    const explains =
      deps.ledger
        .report()
        .routes.find((r) => r.route === record.route)
        ?.explained.find((e) => e.reason === 'accepted' && e.path === generalise(difference.path))?.count ?? 0;
    deps.log.info(
      {
        audit: 'accepted',
        by,
        route: record.route,
        path: record.path,
        primary: record.primary,
        candidate: record.candidate,
        note: record.note,
        at: record.time,
        explains,
      },
      'shadow difference accepted',
    );
    return { accepted: record, explains };
  };
}
