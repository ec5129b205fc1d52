/**
 * The configuration in force on this replica, and what a reload did with a configuration read again:
 * the route table applied (when a configuration file sets it), every other setting that differs named
 * as not applied (a restart applies it). Exported as metrics so that an operator sees every replica
 * took a change: the generation of the route table, a hash of the configuration in force, whether the
 * last reload was taken and how many settings wait for a restart.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import type { Metrics } from '../observability/metrics.js';
import { scrub } from '../observability/redact.js';
import type { RouteControl, RouteTable } from './route-control.js';

/** The settings the route table holds: applied by a reload, changed by the operator API without a file. */
const TABLE_PATHS = ['routes', 'routesByMerchant', 'shadow.sample', 'canaryKey'];
const inTable = (path: string) => TABLE_PATHS.some((p) => path === p || path.startsWith(`${p}.`));

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The dotted paths at which two configurations differ: each leaf setting, a list as a whole. */
function differingPaths(a: unknown, b: unknown, prefix = ''): string[] {
  if (isPlain(a) && isPlain(b))
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) =>
      differingPaths(a[key], b[key], prefix ? `${prefix}.${key}` : key),
    );
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [prefix];
}

/** JSON with the keys of every object sorted: one text for one configuration, whatever order it was read in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlain(value))
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export interface ReloadOutcome {
  /** The route table in force after the reload. */
  table: RouteTable;
  /** Whether the reload applied the file's route table (false without a file: the operator API's table stands). */
  routesApplied: boolean;
  /** Settings the configuration read differs in from the one in force, which a restart would apply. */
  notApplied: string[];
}

/**
 * `config` is what runs; `declared` what the operator gave (file, variables, flags), before the
 * embedded sandbox's own addresses were laid in: the hash and the reloads' differences are taken on
 * it, so that replicas given one configuration show one hash whatever ports their sandboxes got.
 */
export function createLiveConfig(config: Config, routes: RouteControl, metrics: Metrics, declared: Config = config) {
  let lastReload = {
    at: Date.now(),
    ok: true,
    source: 'start',
    notApplied: [] as string[],
    error: undefined as string | undefined,
  };

  /** A configuration with the live route table laid in. */
  function withTable(base: Config): Config {
    const { modes, merchants, sample, canaryKey } = routes.table;
    return { ...base, routes: modes, routesByMerchant: merchants, canaryKey, shadow: { ...base.shadow, sample } };
  }
  /** The configuration this replica runs: the one it started with, the live route table laid in. */
  const inForce = (): Config => withTable(config);
  let hashed: { version: number; hash: string } | undefined;
  /** A short digest of the configuration in force, as declared: one value on every replica that runs the same configuration. */
  function hash(): string {
    if (hashed?.version !== routes.table.version)
      hashed = {
        version: routes.table.version,
        hash: createHash('sha256')
          .update(canonical(withTable(declared)))
          .digest('hex')
          .slice(0, 12),
      };
    return hashed.hash;
  }

  metrics.gauge(
    'paybridge_config_generation',
    'Changes made to the route table since this replica started (a reload that applied one, or an operator change).',
    () => routes.table.version,
  );
  metrics.info(
    'paybridge_config_info',
    'The configuration in force: 1, labelled with its hash (every replica that took a change shows the same hash) and what last set the route table.',
    ['hash', 'source'],
    () => ({ hash: hash(), source: routes.table.source.split(' ')[0]! }),
  );
  metrics.gauge(
    'paybridge_config_last_reload_successful',
    'Whether the last reload of the configuration was taken (1) or refused as invalid (0, the running configuration stays).',
    () => (lastReload.ok ? 1 : 0),
  );
  metrics.gauge(
    'paybridge_config_last_reload_timestamp_seconds',
    'When the configuration was last read (start or reload), in seconds since the epoch.',
    () => lastReload.at / 1000,
  );
  metrics.gauge(
    'paybridge_config_not_applied',
    'Settings the configuration last read holds that this replica does not run: a restart applies them.',
    () => lastReload.notApplied.length,
  );

  return {
    inForce,
    hash,
    /**
     * A configuration read again (validated, as declared: no embedded sandbox laid in): the route table
     * applied when a file sets it (without one, the operator API's table stands), every other
     * difference named, not applied.
     */
    reload(next: Config, source: string): ReloadOutcome {
      const routesApplied = routes.managedBy !== undefined;
      const table = routesApplied ? routes.reload(next, source) : routes.table;
      const notApplied = differingPaths(withTable(declared), next).filter((path) => !inTable(path));
      lastReload = { at: Date.now(), ok: true, source, notApplied, error: undefined };
      return { table, routesApplied, notApplied };
    },
    /** A configuration that could not be read or did not validate: nothing changes, and it shows. */
    refused(source: string, error: string): void {
      lastReload = { at: Date.now(), ok: false, source, notApplied: lastReload.notApplied, error: scrub(error) };
    },
    /** What `GET /_paybridge/config` shows besides the configuration itself. */
    status() {
      const { version, changedAt, source } = routes.table;
      return {
        generation: version,
        hash: hash(),
        routesSetBy:
          routes.managedBy !== undefined
            ? `the configuration file ${routes.managedBy}`
            : 'the operator API (no configuration file)',
        routesChanged: { at: changedAt, by: source },
        lastReload: {
          at: new Date(lastReload.at).toISOString(),
          source: lastReload.source,
          ok: lastReload.ok,
          ...(lastReload.error ? { error: lastReload.error } : {}),
        },
        notApplied: lastReload.notApplied,
      };
    },
  };
}

export type LiveConfig = ReturnType<typeof createLiveConfig>;
