/**
 * A mapping checked against the current API at start-up (contract/current-routes.ts): its call an
 * operation of that API, its body wrapped in an action the operation takes, a legacy read translated
 * into reads only, every key it writes into the call one the operation's schema knows, and every key
 * it reads from the answer one the answer has (current-keys.ts). A failed check is a MappingError
 * naming the file and the mapping.
 */
import { CURRENT_ROUTES, type CurrentRoute } from '../contract/current-routes.js';
import { ACTION_VARIANTS } from '../contract/zod-helpers.js';
import type { Mapping, ParamTarget } from './define.js';
import { isReadSchema, probes, unknownReadKeys, unknownReads, unknownTargets } from './current-keys.js';
import type { CompiledShape, Obj } from './shape.js';
import { keyTree, type KeyTree } from './unknown-fields.js';
import { toCurrentKey } from './vocabulary.js';

export class MappingError extends Error {
  constructor(mapping: Mapping, problem: string) {
    super(`${mapping.source}: mapping ${mapping.route || '(no route id)'} (${mapping.legacy}): ${problem}`);
    this.name = 'MappingError';
  }
}

/** `METHOD /path` -> [method, path]. */
export const splitCall = (call: string): [string, string] => {
  const at = call.indexOf(' ');
  return [call.slice(0, at), call.slice(at + 1)];
};

/** The current call must be an operation of the current API, and each action a mapping wraps its body in one it takes. */
export function checkCurrentCall(mapping: Mapping, call: string, wraps: string[]): CurrentRoute {
  const [method, path] = splitCall(call);
  const operation = CURRENT_ROUTES.find((r) => r.method === method && r.path === path);
  if (!operation)
    throw new MappingError(mapping, `${call} is not an operation of the current API (src/contract/current-routes.ts)`);
  const actions = operation.body ? ACTION_VARIANTS.get(operation.body) : undefined;
  for (const action of wraps)
    if (!actions || !Object.hasOwn(actions, action))
      throw new MappingError(
        mapping,
        `${call} takes no action ${action}${actions ? ` (it takes ${Object.keys(actions).join(', ')})` : ''}`,
      );
  return operation;
}

/**
 * A legacy GET stays a read: its current call (and any read made before it) must be a GET. A legacy
 * client, a proxy's retry, a crawler following a link or shadow mode's second read may send a GET
 * again at any time; translated into a DELETE or a PATCH, each would act (`GET /orders/{id}/notes`
 * cancelling the order). A mapping that must do otherwise declares why (`unsafeGet`, docs/translator.md).
 */
export function checkReadStaysRead(
  mapping: Mapping,
  legacyMethod: string,
  operation: CurrentRoute,
  preflight: CurrentRoute | undefined,
): void {
  if (preflight && preflight.method !== 'GET')
    throw new MappingError(
      mapping,
      `its preflight ${preflight.method} ${preflight.path} is not a read: a read made before the call must be a GET`,
    );
  if (legacyMethod !== 'GET' || operation.method === 'GET') return;
  if (typeof mapping.unsafeGet === 'string' && mapping.unsafeGet.trim() !== '') return;
  throw new MappingError(
    mapping,
    `a legacy GET is a read, but ${mapping.current} is not: every repeat of the GET would act. Map it to a read, or declare unsafeGet with the reason the legacy GET acted too (docs/translator.md)`,
  );
}

/**
 * Every key a mapping writes into the current call's body (per action) and query must be one the
 * operation's schema knows: a rename target with a typo is a start-up error, not a field the current
 * API drops or refuses.
 */
export function checkCurrentKeys(
  mapping: Mapping,
  operation: CurrentRoute,
  requestShapes: Map<string, CompiledShape>,
  params: { target: ParamTarget }[],
  probe: Obj,
  queryTree: KeyTree | undefined,
): void {
  const targets = [...params.map((p) => p.target), ...Object.values(mapping.request?.move ?? {})];
  const named = (to: ParamTarget['to']) => targets.filter((t) => t.to === to).map((t) => t.name);
  const actions = operation.body ? ACTION_VARIANTS.get(operation.body) : undefined;
  for (const [body, wrap] of probes(probe, mapping.request?.wrap)) {
    const shape = requestShapes.get(wrap);
    const schema = wrap === '' ? operation.body : actions?.[wrap];
    if (!shape) throw new MappingError(mapping, `its wrap chose ${wrap || 'no action'}, which has no shape`);
    if (!schema) {
      if (mapping.body || named('body').length > 0) throw new MappingError(mapping, `${mapping.current} takes no body`);
      continue;
    }
    const unknown = unknownTargets(shape, body, named('body'), schema);
    if (unknown.length > 0)
      throw new MappingError(
        mapping,
        `${wrap ? `${wrap} in ` : ''}${mapping.current} has no field ${unknown.join(', ')} (src/contract/current-requests.ts)`,
      );
  }
  // query parameters: path ids put there, and the legacy query's keys as renamed (the shape, else the vocabulary)
  const renames = mapping.query?.shape ?? {};
  const legacyKeys = [...(queryTree?.keys.keys() ?? [])];
  const query = [
    ...named('query'),
    ...legacyKeys.map((key) => (typeof renames[key] === 'string' ? renames[key] : toCurrentKey(key))),
  ];
  // no query schema: the operation takes none; a null tree: it takes anything
  const known = operation.query ? keyTree(operation.query) : undefined;
  const unknownQuery = known === null ? [] : query.filter((name) => !known?.keys.has(name));
  if (unknownQuery.length > 0)
    throw new MappingError(mapping, `${mapping.current} has no query parameter ${unknownQuery.join(', ')}`);
}

/**
 * Every key a mapping's answer translation (its response shape, or its map function) reads must be one
 * the operation's answers have: a misspelt key would leave a legacy field missing from every answer.
 */
export function checkCurrentReads(
  mapping: Mapping,
  operation: CurrentRoute,
  responseShape: CompiledShape | undefined,
  probe: Obj,
): void {
  const response = mapping.response;
  if ('map' in response)
    for (const form of response.reads) {
      // a read schema (tolerant) names only keys some answer of the operation has; a contract schema is one of them
      const unknown = isReadSchema(form) ? unknownReadKeys(form, operation.answers ?? []) : undefined;
      if (unknown?.length)
        throw new MappingError(
          mapping,
          `its read schema names ${unknown.join(', ')}, which no answer of ${mapping.current} has (src/contract/current-responses.ts)`,
        );
      if (!unknown && !(operation.answers ?? []).includes(form))
        throw new MappingError(
          mapping,
          `its map reads a form ${mapping.current} does not answer with (src/contract/current-routes.ts)`,
        );
    }
  const read = responseShape
    ? (answer: Obj) => responseShape.backward(answer)
    : 'map' in response
      ? (answer: Obj) => response.map(answer as never, probe as never, undefined as never)
      : undefined;
  const at = 'shape' in response ? response.at : undefined;
  // a map is probed with the forms it reads, lists as the bare arrays it gets; a shape with every form
  const unread = read
    ? 'map' in response
      ? unknownReads(read, response.reads, undefined, 'bare')
      : unknownReads(read, operation.answers ?? [], at)
    : [];
  if (unread.length > 0)
    throw new MappingError(
      mapping,
      `the answer of ${mapping.current}${at ? ` at ${at}` : ''} has no field ${unread.join(', ')} (src/contract/current-responses.ts)`,
    );
}
