import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { hasIdForm, type IdKind } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { requireCapability, resolveActor, type Actor, type Capability, type ContextClaim } from '../access.js';
import { parseWith, pathId } from '../http.js';
import type { Store } from '../store.js';
import { legacyCredential, legacyPrincipal } from './credentials.js';

export interface LegacyRouteSpec<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  capability: Capability;
  /** Path parameters that are ids, checked by prefix in this order; with several kinds, the first names the error. */
  ids?: Record<string, IdKind | readonly [IdKind, ...IdKind[]]>;
  body?: B;
  query?: Q;
  /** The context the path names (platformId, merchantId, customerId), checked like current context headers. */
  claim?: (params: Record<string, string>, body: B extends z.ZodType ? z.output<B> : undefined) => ContextClaim;
}

export interface LegacyCall<B, Q> {
  actor: Actor;
  store: Store;
  params: Record<string, string>;
  body: B;
  query: Q;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/**
 * A legacy route handler. Checks run in the gateway's order so both answer a bad call alike:
 * credential header, path ids, body, credential, capability, context, then the operation.
 */
export function legacyRoute<B extends z.ZodType | undefined, Q extends z.ZodType | undefined>(
  store: Store,
  spec: LegacyRouteSpec<B, Q>,
  run: (call: LegacyCall<Out<B>, Out<Q>>) => unknown,
) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const credential = legacyCredential(req);
    const params = req.params as Record<string, string>;
    for (const [name, kind] of Object.entries(spec.ids ?? {})) {
      if (typeof kind === 'string') pathId(kind, req, name);
      else if (!kind.some((k) => hasIdForm(k, params[name]))) pathId(kind[0], req, name);
    }
    const query = (spec.query ? parseWith(spec.query, req.query, 'query') : undefined) as Out<Q>;
    if (!spec.body) noBody(req.body);
    const body = (spec.body ? parseWith(spec.body, req.body) : undefined) as Out<B>;
    const principal = await legacyPrincipal(store, credential);
    requireCapability(principal, spec.capability);
    const actor = resolveActor(store, principal, spec.claim ? spec.claim(params, body) : {});
    return run({ actor, store, params, body, query, req, reply });
  };
}

/** A route that takes no body accepts none, `{}` or `null`: anything else is refused before the call acts. */
function noBody(body: unknown): void {
  if (body === undefined || body === null || body === '') return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  throw new PaybridgeError('invalid_request', 'body: this call takes no body (send none, or {})');
}
