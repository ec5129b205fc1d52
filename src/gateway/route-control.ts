/**
 * The route table as one immutable value, swapped whole: each route's mode and shadow sample rate. A
 * request reads the table once, as it is classified, and finishes under it whatever changes after;
 * a change (the operator API, SIGHUP, the configuration file rewritten) is validated first and then
 * replaces the table in one assignment, or changes nothing. Every change is one audit line and counted.
 */
import { ROUTE_MODES, type Config, type RouteMode } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';

export interface RouteTable {
  /** Mode per route id, `*` for the rest. */
  readonly modes: Readonly<Record<string, RouteMode>>;
  /** Shadow/canary sample rate per route id, `*` for the rest. */
  readonly sample: Readonly<Record<string, number>>;
  /** Modes for one merchant's requests, over `modes`: merchant id -> route id (or `*`) -> mode. */
  readonly merchants: Readonly<Record<string, Readonly<Record<string, RouteMode>>>>;
  /** Counts the changes since start (0: as configured at start). */
  readonly version: number;
  readonly changedAt: string;
  /** What made this table: `start`, `operator <token name>`, `SIGHUP`, `file`. */
  readonly source: string;
}

/** A route's mode: the merchant's own, when the table has one for it, else the route's, else `*`'s. */
export const modeOf = (table: RouteTable, route: string, merchant?: string): RouteMode => {
  const own = merchant === undefined ? undefined : table.merchants[merchant];
  return own?.[route] ?? own?.['*'] ?? table.modes[route] ?? table.modes['*'] ?? 'current';
};

/** Whether any merchant has modes of its own (only then is a request's merchant looked for). */
export const hasMerchantModes = (table: RouteTable): boolean => Object.keys(table.merchants).length > 0;
export const sampleOf = (table: RouteTable, route: string): number => table.sample[route] ?? table.sample['*'] ?? 1;

/** One route's change asked for: a new mode, a new sample rate, or both. */
export interface RouteChange {
  route: string;
  mode?: unknown;
  sample?: unknown;
  /** The change is this merchant's mode only (`mode: null` removes it). */
  merchant?: unknown;
}

export interface AuditLog {
  info(obj: object, msg: string): void;
}

export function createRouteControl(config: Config, routeIds: readonly string[], log: AuditLog, metrics: Metrics) {
  const known = new Set(['*', ...routeIds]);
  const changes = metrics.counter('paybridge_route_changes_total', 'Route mode or sample changes applied, by route id and what made them (operator, SIGHUP, file).', ['route', 'source']);
  let table: RouteTable = Object.freeze({
    modes: Object.freeze({ ...config.routes }), sample: Object.freeze({ ...config.shadow.sample }), merchants: Object.freeze({ ...config.routesByMerchant }),
    version: 0, changedAt: isoTime(), source: 'start',
  });

  /** A change checked against the route table and the modes: the first problem, naming the field. */
  function check(change: RouteChange): void {
    if (!known.has(change.route)) throw new PaybridgeError('invalid_request', `route: ${change.route} is not a route id (${routeIds[0]}-${routeIds.at(-1)} or *)`);
    if (change.merchant !== undefined) {
      if (typeof change.merchant !== 'string' || !/^mcht_[A-Za-z0-9_-]{1,64}$/.test(change.merchant)) throw new PaybridgeError('invalid_request', `merchant: ${JSON.stringify(change.merchant)} is not a mcht_ id`);
      if (change.sample !== undefined) throw new PaybridgeError('invalid_request', 'sample: a sample rate is the route\'s, not one merchant\'s');
      if (change.mode === null) return;
    }
    if (change.mode === undefined && change.sample === undefined) throw new PaybridgeError('invalid_request', `${change.route}: name a mode or a sample rate to change`);
    if (change.mode !== undefined && !ROUTE_MODES.includes(change.mode as RouteMode))
      throw new PaybridgeError('invalid_request', `mode: ${JSON.stringify(change.mode)} is not a mode (${ROUTE_MODES.join(', ')})`);
    if (change.sample !== undefined && (typeof change.sample !== 'number' || !(change.sample >= 0 && change.sample <= 1)))
      throw new PaybridgeError('invalid_request', `sample: ${JSON.stringify(change.sample)} is not a share between 0 and 1`);
  }

  /** Replaces the table with `next`, one audit line per route whose mode or sample moved. */
  function install(next: { modes: Record<string, RouteMode>; sample: Record<string, number>; merchants: Record<string, Record<string, RouteMode>> }, source: string): RouteTable {
    const before = table;
    const keys = (...records: Readonly<Record<string, unknown>>[]) => [...new Set(records.flatMap((r) => Object.keys(r)))];
    const moved = keys(before.modes, next.modes, before.sample, next.sample).filter((route) => before.modes[route] !== next.modes[route] || before.sample[route] !== next.sample[route]);
    const movedForMerchants = keys(before.merchants, next.merchants).flatMap((merchant) =>
      keys(before.merchants[merchant] ?? {}, next.merchants[merchant] ?? {})
        .filter((route) => before.merchants[merchant]?.[route] !== next.merchants[merchant]?.[route])
        .map((route) => [merchant, route] as const),
    );
    if (moved.length === 0 && movedForMerchants.length === 0) return table;
    table = Object.freeze({ modes: Object.freeze(next.modes), sample: Object.freeze(next.sample), merchants: Object.freeze(next.merchants), version: before.version + 1, changedAt: isoTime(), source });
    const audit = (route: string, merchant: string | undefined, old: object, now: object) => {
      changes.inc({ route, source: source.split(' ')[0]! });
      log.info({ audit: 'route', by: source, route, ...(merchant ? { merchant } : {}), old, new: now, at: table.changedAt, version: table.version }, 'route changed');
    };
    for (const route of moved)
      audit(route, undefined, { mode: before.modes[route] ?? null, sample: before.sample[route] ?? null }, { mode: next.modes[route] ?? null, sample: next.sample[route] ?? null });
    for (const [merchant, route] of movedForMerchants)
      audit(route, merchant, { mode: before.merchants[merchant]?.[route] ?? null }, { mode: next.merchants[merchant]?.[route] ?? null });
    return table;
  }

  return {
    /** The table in force; a request reads it once. */
    get table(): RouteTable {
      return table;
    },
    /** Validates every change first; applies all of them as one new table, or none (a 400 naming the field). */
    change(changes: readonly RouteChange[], by: string): RouteTable {
      for (const change of changes) check(change);
      const modes = { ...table.modes };
      const sample = { ...table.sample };
      const merchants: Record<string, Record<string, RouteMode>> = { ...table.merchants };
      for (const change of changes) {
        if (typeof change.merchant === 'string') {
          const own = { ...merchants[change.merchant] };
          if (change.mode === null) delete own[change.route];
          else own[change.route] = change.mode as RouteMode;
          if (Object.keys(own).length > 0) merchants[change.merchant] = own;
          else delete merchants[change.merchant];
          continue;
        }
        if (change.mode !== undefined) modes[change.route] = change.mode as RouteMode;
        if (change.sample !== undefined) sample[change.route] = change.sample as number;
      }
      return install({ modes, sample, merchants }, by);
    },
    /** The modes and sample rates of a configuration read again (SIGHUP, the file rewritten), already validated. */
    reload(next: Config, source: string): RouteTable {
      return install({ modes: { ...next.routes }, sample: { ...next.shadow.sample }, merchants: { ...next.routesByMerchant } }, source);
    },
  };
}

export type RouteControl = ReturnType<typeof createRouteControl>;
