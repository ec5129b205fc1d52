/**
 * Before the first write is sent to the candidate, the candidate must prove it is isolated: a
 * resource the primary just created must not be readable there. If it is, sending stops for good.
 */
import { credentialHeaders, parseJson, asLegacyRequest, type Exchange } from './exchange.js';
import type { Sides } from './sides.js';

export type IsolationState = 'unproven' | 'proven' | 'stopped';

export interface IsolationDeps {
  sides: Sides;
  gauge: (name: string, help: string, value: () => number) => void;
  log: { error(obj: object, msg: string): void };
}

export function createIsolation(deps: IsolationDeps) {
  let state: IsolationState = 'unproven';
  deps.gauge(
    'paybridge_shadow_send_stopped',
    "Whether shadow send stopped for good because the candidate was found sharing the primary's store (1) or not (0).",
    () => (state === 'stopped' ? 1 : 0),
  );

  return {
    get state(): IsolationState {
      return state;
    },
    /** Probes the candidate with a readback of what this exchange created, until isolation is proven or refuted. */
    async check(ex: Exchange): Promise<IsolationState> {
      if (state !== 'unproven') return state;
      const path = ex.compiled.mapping.readback?.({
        params: ex.params,
        body: parseJson(ex.request.body),
        answer: ex.primary.body,
      });
      if (!path) return 'unproven';
      const probe = await deps.sides.candidate(ex)(
        asLegacyRequest(ex, 'isolation', { method: 'GET', path, headers: credentialHeaders(ex.request.headers) }),
      );
      if (state !== 'unproven') return state;
      if (probe.status < 300) {
        state = 'stopped';
        deps.log.error(
          { route: ex.route, requestId: ex.requestId, probe: path.replace(/\/[^/]+$/, '/{id}') },
          'shadow send stopped for good: a resource the primary just created is readable from the candidate, so it is not isolated',
        );
      } else if (probe.status === 404) state = 'proven';
      return state;
    },
  };
}
