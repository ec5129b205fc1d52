/**
 * The route table as one immutable value, swapped whole: each route's mode and shadow sample rate. A
 * request reads the table once, as it is classified, and finishes under it whatever changes after;
 * a change (the operator API, SIGHUP, the configuration file rewritten) is validated first and then
 * replaces the table in one assignment, or changes nothing. Every change is one audit line and counted.
 *
 * The table has one source of truth: with a configuration file, the file (a reload applies its table;
 * the operator API refuses changes, which the next reload would undo); without one, the operator API
 * (the flags and variables set the table at start, and a reload leaves it as the API made it).
 */
import {
  isModeSetting,
  parseModeSetting,
  ROUTE_MODES,
  type CanaryKey,
  type Config,
  type ModeSetting,
  type RouteMode,
} from '../config.js';
import { PaybridgeError } from '../errors.js';
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';

export interface RouteTable {
  /** Mode per route id, `*` for the rest (`canary:10%` for a percentage canary). */
  readonly modes: Readonly<Record<string, ModeSetting>>;
  /** Shadow/canary sample rate per route id, `*` for the rest. */
  readonly sample: Readonly<Record<string, number>>;
  /** Modes for one merchant's requests, over `modes`: merchant id -> route id (or `*`) -> mode. */
  readonly merchants: Readonly<Record<string, Readonly<Record<string, ModeSetting>>>>;
  /** What a percentage canary's choice sticks to. */
  readonly canaryKey: CanaryKey;
  /** Counts the changes since start (0: as configured at start). */
  readonly version: number;
  readonly changedAt: string;
  /** What made this table: `start`, `operator <token name>`, `SIGHUP`, `file`. */
  readonly source: string;
}

/** A route's mode setting: the merchant's own, when the table has one for it, else the route's, else `*`'s. */
export const modeOf = (table: RouteTable, route: string, merchant?: string): ModeSetting => {
  const own = merchant === undefined ? undefined : table.merchants[merchant];
  return own?.[route] ?? own?.['*'] ?? table.modes[route] ?? table.modes['*'] ?? 'current';
};

/** Mode settings parsed once each (there are a handful: the modes and the canary shares in use). */
const parsedSettings = new Map<string, { mode: RouteMode; percent: number }>();

/** A route's mode and the percent of its requests the translation serves (a percentage canary's share). */
export function routeMode(table: RouteTable, route: string, merchant?: string): { mode: RouteMode; percent: number } {
  const setting = modeOf(table, route, merchant);
  let parsed = parsedSettings.get(setting);
  if (parsed === undefined) parsedSettings.set(setting, (parsed = parseModeSetting(setting)));
  return parsed;
}

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

/** The parts of a configuration the route table holds. */
type TableSettings = Pick<RouteTable, 'modes' | 'sample' | 'merchants' | 'canaryKey'>;

const settingsOf = (config: Config): TableSettings => ({
  modes: { ...config.routes },
  sample: { ...config.shadow.sample },
  merchants: { ...config.routesByMerchant },
  canaryKey: config.canaryKey,
});

/**
 * `managedBy`: the configuration file that sets the table, when there is one; the operator API's
 * changes are then refused (a 403 naming the file), since the next reload would silently undo them.
 */
export function createRouteControl(
  config: Config,
  routeIds: readonly string[],
  log: AuditLog,
  metrics: Metrics,
  managedBy?: string,
) {
  const known = new Set(['*', ...routeIds]);
  const changes = metrics.counter(
    'paybridge_route_changes_total',
    'Route mode or sample changes applied, by route id and what made them (operator, SIGHUP, file).',
    ['route', 'source'],
  );
  let table: RouteTable = Object.freeze({ ...settingsOf(config), version: 0, changedAt: isoTime(), source: 'start' });

  /** A change checked against the route table and the modes: the first problem, naming the field. */
  function check(change: RouteChange): void {
    if (!known.has(change.route))
      throw new PaybridgeError(
        'invalid_request',
        `route: ${change.route} is not a route id (${routeIds[0]}-${routeIds.at(-1)} or *)`,
      );
    if (change.merchant !== undefined) {
      if (typeof change.merchant !== 'string' || !/^mcht_[A-Za-z0-9_-]{1,64}$/.test(change.merchant))
        throw new PaybridgeError('invalid_request', `merchant: ${JSON.stringify(change.merchant)} is not a mcht_ id`);
      if (change.sample !== undefined)
        throw new PaybridgeError('invalid_request', "sample: a sample rate is the route's, not one merchant's");
      if (change.mode === null) return;
    }
    if (change.mode === undefined && change.sample === undefined)
      throw new PaybridgeError('invalid_request', `${change.route}: name a mode or a sample rate to change`);
    if (change.mode !== undefined && !isModeSetting(change.mode))
      throw new PaybridgeError(
        'invalid_request',
        `mode: ${JSON.stringify(change.mode)} is not a mode (${ROUTE_MODES.join(', ')}, or canary:N% for a canary serving N percent from the translation)`,
      );
    if (
      change.sample !== undefined &&
      (typeof change.sample !== 'number' || !(change.sample >= 0 && change.sample <= 1))
    )
      throw new PaybridgeError(
        'invalid_request',
        `sample: ${JSON.stringify(change.sample)} is not a share between 0 and 1`,
      );
  }

  /** Replaces the table with `next`, one audit line per route whose mode or sample moved. */
  function install(next: TableSettings, source: string): RouteTable {
    const before = table;
    const keys = (...records: Readonly<Record<string, unknown>>[]) => [
      ...new Set(records.flatMap((r) => Object.keys(r))),
    ];
    const moved = keys(before.modes, next.modes, before.sample, next.sample).filter(
      (route) => before.modes[route] !== next.modes[route] || before.sample[route] !== next.sample[route],
    );
    const movedForMerchants = keys(before.merchants, next.merchants).flatMap((merchant) =>
      keys(before.merchants[merchant] ?? {}, next.merchants[merchant] ?? {})
        .filter((route) => before.merchants[merchant]?.[route] !== next.merchants[merchant]?.[route])
        .map((route) => [merchant, route] as const),
    );
    if (moved.length === 0 && movedForMerchants.length === 0 && next.canaryKey === before.canaryKey) return table;
    table = Object.freeze({
      modes: Object.freeze(next.modes),
      sample: Object.freeze(next.sample),
      merchants: Object.freeze(next.merchants),
      canaryKey: next.canaryKey,
      version: before.version + 1,
      changedAt: isoTime(),
      source,
    });
    if (next.canaryKey !== before.canaryKey)
      log.info(
        {
          audit: 'route',
          by: source,
          route: '*',
          old: { canaryKey: before.canaryKey },
          new: { canaryKey: next.canaryKey },
          at: table.changedAt,
          version: table.version,
        },
        'route changed',
      );
    const audit = (route: string, merchant: string | undefined, old: object, now: object) => {
      changes.inc({ route, source: source.split(' ')[0]! });
      log.info(
        {
          audit: 'route',
          by: source,
          route,
          ...(merchant ? { merchant } : {}),
          old,
          new: now,
          at: table.changedAt,
          version: table.version,
        },
        'route changed',
      );
    };
    for (const route of moved)
      audit(
        route,
        undefined,
        { mode: before.modes[route] ?? null, sample: before.sample[route] ?? null },
        { mode: next.modes[route] ?? null, sample: next.sample[route] ?? null },
      );
    for (const [merchant, route] of movedForMerchants)
      audit(
        route,
        merchant,
        { mode: before.merchants[merchant]?.[route] ?? null },
        { mode: next.merchants[merchant]?.[route] ?? null },
      );
    return table;
  }

  return {
    /** The table in force; a request reads it once. */
    get table(): RouteTable {
      return table;
    },
    /** The configuration file that sets the table, if any (the operator API then refuses changes). */
    managedBy,
    /** Validates every change first; applies all of them as one new table, or none (a 400 naming the field). */
    change(changes: readonly RouteChange[], by: string): RouteTable {
      if (managedBy !== undefined)
        throw new PaybridgeError(
          'forbidden',
          `the route table is set by the configuration file ${managedBy}: change the file (in Kubernetes, the ConfigMap), which every replica reloads; a change made here would be undone by the next reload`,
        );
      for (const change of changes) check(change);
      const modes = { ...table.modes };
      const sample = { ...table.sample };
      const merchants: Record<string, Record<string, ModeSetting>> = { ...table.merchants };
      for (const change of changes) {
        if (typeof change.merchant === 'string') {
          const own = { ...merchants[change.merchant] };
          if (change.mode === null) delete own[change.route];
          else own[change.route] = change.mode as ModeSetting;
          if (Object.keys(own).length > 0) merchants[change.merchant] = own;
          else delete merchants[change.merchant];
          continue;
        }
        if (change.mode !== undefined) modes[change.route] = change.mode as ModeSetting;
        if (change.sample !== undefined) sample[change.route] = change.sample as number;
      }
      return install({ modes, sample, merchants, canaryKey: table.canaryKey }, by);
    },
    /** The route table of a configuration file read again (SIGHUP, the file rewritten), already validated. */
    reload(next: Config, source: string): RouteTable {
      return install(settingsOf(next), source);
    },
  };
}

export type RouteControl = ReturnType<typeof createRouteControl>;
