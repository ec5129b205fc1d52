/**
 * The legacy route table of legacy-api.md section 3, derived from the registry of routes: the mappings.
 * A legacy route is its mapping file (and its native twin in the sandbox's legacy face); the route
 * table, configuration validation (route ids for modes), the OpenAPI, `paybridge routes` and every
 * count come from here, so adding a route touches no list, regex or count elsewhere.
 */
import { ALL_MAPPINGS } from '../../mappings/index.js';
import type { Mapping } from './define.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LegacyRoute {
  id: string;
  tier: 1 | 2;
  method: HttpMethod;
  /** Path with `{param}` segments. */
  path: string;
  /** The current call the mapping makes. */
  current: string;
}

/** What a route id looks like: L and a number (L1, L32). */
export const ROUTE_ID = /^L(?!0)\d{1,4}$/;

/** A route id's number, to order routes by (L2 before L10). */
export const routeNumber = (id: string) => Number(id.slice(1));

/** The route table of a set of mappings, by route number. */
function routeTable(mappings: readonly Mapping[]): LegacyRoute[] {
  return mappings
    .map((m) => {
      const [method, path] = m.legacy.split(' ') as [HttpMethod, string];
      return { id: m.route, tier: m.tier ?? 1, method, path, current: m.current };
    })
    .sort((a, b) => routeNumber(a.id) - routeNumber(b.id));
}

/** The routes the gateway serves: one per mapping of mappings/. */
export const LEGACY_ROUTES: readonly LegacyRoute[] = routeTable(ALL_MAPPINGS);

/** Their ids, for configuration (modes, samples, write safety per route). */
export const ROUTE_IDS: ReadonlySet<string> = new Set(LEGACY_ROUTES.map((r) => r.id));
