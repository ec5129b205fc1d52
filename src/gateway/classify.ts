/**
 * What happens to a request, decided once from its credential, path and the route's mode: which
 * generation it speaks, which route it is, and for a passthrough the upstream it goes to.
 */
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { foreignScheme, isLegacyRequest } from '../translate/credentials.js';
import type { Translator } from '../translate/index.js';
import { environmentOf, type Environment } from './environments.js';
import { routeMode, sampleOf, type RouteTable } from './route-control.js';
import { soleCredential, type Decision } from './requests.js';

/**
 * `admit(route)`: whether a sampled shadow exchange can be compared (room in the comparison queue);
 * one that cannot is served as an unsampled one.
 */
export function createClassifier(
  config: Config,
  translator: Translator,
  routes: { readonly table: RouteTable },
  admit: (route: string) => boolean = () => true,
) {
  const defaultEnvironment: Environment =
    config.defaultEnvironment ??
    (config.upstreams.sandbox.current || config.upstreams.sandbox.legacy ? 'sandbox' : 'live');

  /** The upstream base URL of an environment and generation, or a legacy 401 naming the credential. */
  function upstreamFor(credential: string | undefined, generation: 'current' | 'legacy'): string {
    const environment = environmentOf(credential, defaultEnvironment);
    const url = config.upstreams[environment][generation];
    if (!url)
      throw new PaybridgeError(
        'unauthenticated',
        `no ${environment} ${generation} upstream is configured for this credential`,
      );
    return url;
  }

  /**
   * Decides what happens to a request. A refusal is thrown: two credentials before anything is
   * decided (a legacy-shaped 400), the rest (no upstream for the credential, a foreign scheme) after
   * `onDecision` has the decision so far, which picks the error's shape.
   */
  function classify(
    method: string,
    url: string,
    headers: Record<string, string | string[]>,
    onDecision: (decision: Decision) => void,
    merchant?: string,
  ): Decision {
    const credential = soleCredential(headers);
    const legacy = isLegacyRequest(headers);
    const scheme = legacy ? undefined : foreignScheme(headers);
    if (scheme !== undefined) {
      // Basic is the generation before the legacy one: its own legacy upstream, never the current API
      const decision: Decision = { generation: 'legacy', headers, route: 'basic', mode: 'legacy' };
      onDecision(decision);
      const environment = environmentOf(credential, defaultEnvironment);
      decision.upstream = scheme.toLowerCase() === 'basic' ? config.upstreams[environment].legacy : undefined;
      if (!decision.upstream)
        throw new PaybridgeError(
          'unsupported_credentials',
          `Authorization: the ${scheme} scheme is not accepted here; use one Limepay-* credential header or Authorization: Bearer`,
        );
      return decision;
    }
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (pathname.startsWith('/sandbox/')) {
      // the sandbox's instruments and pages (card tokens, 3DS page, checkout): its own faces, never live
      const decision: Decision = {
        generation: legacy ? 'legacy' : 'current',
        headers,
        route: 'sandbox',
        mode: 'passthrough',
      };
      onDecision(decision);
      if (credential?.startsWith('live_'))
        throw new PaybridgeError('unauthenticated', 'sandbox instruments take sandbox credentials only');
      const sandbox = config.upstreams.sandbox;
      decision.upstream = legacy ? sandbox.legacy : (sandbox.current ?? sandbox.legacy);
      if (!decision.upstream)
        throw new PaybridgeError('route_not_mapped', `${method} ${pathname}: no sandbox upstream is configured`);
      return decision;
    }
    if (method === 'OPTIONS' && headers['access-control-request-method'] !== undefined && !legacy) {
      // a browser's CORS preflight carries no credential: the current API (the sandbox's face) answers it
      const decision: Decision = { generation: 'current', headers, route: 'current', mode: 'passthrough' };
      onDecision(decision);
      decision.upstream = config.upstreams[defaultEnvironment].current;
      if (!decision.upstream)
        throw new PaybridgeError('route_not_mapped', `${method} ${pathname}: no current upstream answers preflights`);
      return decision;
    }
    if (legacy || headers.authorization === undefined) {
      const match = translator.routes.match(method, pathname);
      const route = match?.compiled.mapping.route ?? 'unmapped';
      // the route table in force as the request starts: it finishes under it, whatever changes later
      const table = routes.table;
      const { mode, percent } = match
        ? routeMode(table, route, merchant)
        : { mode: config.unmappedRoutes === 'legacy' ? ('legacy' as const) : ('current' as const), percent: 0 };
      const decision: Decision = {
        generation: 'legacy',
        headers,
        route,
        mode,
        match,
        ...(merchant ? { merchant } : {}),
      };
      onDecision(decision);
      // a percentage canary: which side serves it is decided once its key is known (the body may name it)
      if (mode === 'canary' && percent < 100) decision.canary = { percent, key: table.canaryKey };
      if (mode === 'shadow' || mode === 'canary')
        decision.sampled = Math.random() < sampleOf(table, route) && (mode === 'canary' || admit(route));
      // legacy mode, and shadow exchanges not sampled, go straight through
      if (mode === 'legacy' || (mode === 'shadow' && !decision.sampled))
        decision.upstream = upstreamFor(credential, 'legacy');
      return decision;
    }
    const decision: Decision = { generation: 'current', headers, route: 'current', mode: 'passthrough' };
    onDecision(decision);
    decision.upstream = upstreamFor(credential, 'current');
    return decision;
  }

  return { classify, upstreamFor };
}
