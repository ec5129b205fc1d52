/**
 * A mapping's rename targets checked against the current API at load (design.md: "its rename targets
 * keys of that schema"). The request shape is run forward over a probe body holding every key the
 * legacy schema knows, so the check sees what the engine really writes (rules, nested shapes and the
 * vocabulary alike); each key written must be one the current action's schema knows. A typo in a
 * target would otherwise go to the current API as an unknown field, to be dropped or refused there.
 */
import type { z } from 'zod';
import type { CompiledShape, Obj } from './shape.js';
import { keyTree, unknownFields, type KeyTree } from './unknown-fields.js';

/** A legacy body with every key the tree knows: objects and one-element arrays where it nests, a string leaf elsewhere. */
function probeBody(tree: KeyTree): unknown {
  if (tree === null) return 'probe';
  if (tree.items !== undefined) return [probeBody(tree.items)];
  const out: Obj = {};
  for (const [key, child] of tree.keys) out[key] = probeBody(child);
  return out;
}

/**
 * The legacy bodies to probe a mapping with, each with the action it is wrapped in: the whole probe
 * for a fixed action. When a function picks the action from the body, a key whose presence alone
 * changes the pick (L4's `paymentActionRequired`) selects its own action: the default action is
 * probed without those keys, and each selecting key is probed with the rest.
 */
export function probes(probe: Obj, wrap: string | ((body: Obj) => string) | undefined): [Obj, string][] {
  if (typeof wrap !== 'function') return [[probe, wrap ?? '']];
  const fallback = wrap({});
  const selectors = Object.keys(probe).filter((key) => wrap({ [key]: probe[key] }) !== fallback);
  const base = Object.fromEntries(Object.entries(probe).filter(([key]) => !selectors.includes(key)));
  const bodies = [base, ...selectors.map((key) => ({ ...base, [key]: probe[key] }))];
  return bodies.map((body) => [body, wrap(body)]);
}

/**
 * The keys a mapping writes into the current body that the current schema of its action does not
 * know: the legacy schema's probe run forward through the action's shape, plus the fields placed into
 * the body from the path or moved there (`toBody`). Empty when they all fit.
 */
export function unknownTargets(
  shape: CompiledShape, body: Obj, bodyFields: readonly string[], currentBody: z.ZodType,
): string[] {
  const written = shape.forward(body);
  for (const name of bodyFields) written[name] = 'probe';
  return unknownFields(keyTree(currentBody), written);
}

/** The probe of a legacy body schema (an empty object when the route takes no body). */
export function legacyProbe(legacyBody: z.ZodType | undefined): Obj {
  const probe = legacyBody ? probeBody(keyTree(legacyBody)) : {};
  return typeof probe === 'object' && probe !== null && !Array.isArray(probe) ? (probe as Obj) : {};
}
