/**
 * A mapping's keys checked against the current API at load (design.md: "its rename targets keys of
 * that schema"). The request shape is run forward over a probe body holding every key the legacy
 * schema knows, so the check sees what the engine really writes (rules, nested shapes and the
 * vocabulary alike); each key written must be one the current action's schema knows. The response
 * shape is run backward over a probe answer that records each key read which the current answer's
 * schema does not have. A misspelt key would otherwise be a field the current API drops or refuses,
 * or a legacy field silently missing from every answer.
 */
import type { z } from 'zod';
import type { CompiledShape, Obj } from './shape.js';
import { keyTree, unknownFields, type KeyTree } from './unknown-fields.js';

/**
 * A value with every key the tree knows: objects and one-element arrays where it nests, a string leaf
 * elsewhere. With `found`, each object records the keys read from it that the tree does not know (as
 * dotted paths): what a response shape reads, told apart from what the current API answers.
 */
function probeValue(tree: KeyTree, found?: Set<string>, path = ''): unknown {
  if (tree === null) return 'probe';
  if (tree.items !== undefined) return [probeValue(tree.items, found, `${path}[0]`)];
  const target: Obj = {};
  for (const [key, child] of tree.keys) target[key] = probeValue(child, found, path ? `${path}.${key}` : key);
  if (!found) return target;
  return new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string' && !Object.hasOwn(t, key) && !(key in Object.prototype))
        found.add(path ? `${path}.${key}` : key);
      return Reflect.get(t, key, receiver) as unknown;
    },
  });
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
  shape: CompiledShape,
  body: Obj,
  bodyFields: readonly string[],
  currentBody: z.ZodType,
): string[] {
  let written: Obj = {};
  try {
    written = shape.forward(body);
  } catch {
    // a rule that cannot run on probe values (a string where it wants a number): not checked here;
    // the check is a guard against misspelt targets, and the parity and truth tests send real bodies
  }
  for (const name of bodyFields) written[name] = 'probe';
  return unknownFields(keyTree(currentBody), written);
}

/** The probe of a legacy body schema's key tree (an empty object when the route takes no body). */
export function legacyProbe(tree: KeyTree | undefined): Obj {
  const probe = tree === undefined ? {} : probeValue(tree);
  return typeof probe === 'object' && probe !== null && !Array.isArray(probe) ? (probe as Obj) : {};
}

/**
 * The keys a response translation (a shape's backward, or a mapping's map function) reads that none
 * of the operation's answers has at `at` (dotted), each answer probed on its own: a key read is
 * unknown only when every answer that has an object at `at` lacks it (a map function looks for each
 * kind of answer it may get). Empty when no answer has an object there (nothing to check against).
 */
export function unknownReads(
  read: (answer: Obj) => unknown,
  answers: readonly z.ZodType[],
  at: string | undefined,
  lists: 'items' | 'bare' = 'items',
): string[] {
  let unknown: Set<string> | undefined;
  for (const answer of answers) {
    let tree = keyTree(answer);
    // a bare list answer is read by a shape as {items: [...]}, as the engine hands it over (a map gets
    // the array, typed from its schema, and is not probed)
    if (tree !== null && tree.items !== undefined && !at && lists === 'items')
      tree = { keys: new Map([['items', tree]]) };
    for (const part of at ? at.split('.') : [])
      tree = tree && tree.items === undefined ? (tree.keys.get(part) ?? null) : null;
    if (tree === null || tree.items !== undefined) continue;
    const found = new Set<string>();
    try {
      read(probeValue(tree, found) as Obj);
    } catch {
      // a rule that cannot run on probe values (a string where it wants a date): the reads before it still count
    }
    unknown = unknown ? new Set([...unknown].filter((path) => found.has(path))) : found;
  }
  return [...(unknown ?? [])];
}

type ZodDef = {
  type: string;
  catchall?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
};
const zodDef = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/**
 * A read schema (design.md: a tolerant reader): an object that keeps the keys it does not know (zod's
 * looseObject), or a list or union of such. Strict contract schemas (the sandbox's own answers) are not.
 */
export function isReadSchema(schema: z.ZodType): boolean {
  const def = zodDef(schema);
  if (def.type === 'object') return def.catchall !== undefined && zodDef(def.catchall).type === 'unknown';
  if (def.type === 'array') return isReadSchema(def.element!);
  if (def.type === 'union') return (def.options ?? []).every(isReadSchema);
  return false;
}

/** The key paths of a read schema that none of the operation's answers has at that place (empty when all are known). */
export function unknownReadKeys(read: z.ZodType, answers: readonly z.ZodType[]): string[] {
  const trees = answers.map(keyTree);
  const out: string[] = [];
  const walk = (tree: KeyTree, at: KeyTree[], path: string) => {
    if (tree === null) return;
    if (tree.items !== undefined)
      return walk(
        tree.items,
        at.flatMap((t) => (t && t.items !== undefined && t.items !== null ? [t.items] : [])),
        `${path}[]`,
      );
    for (const [key, child] of tree.keys) {
      const known = at
        .filter((t) => t !== null && t.items === undefined && t.keys.has(key))
        .map((t) => t!.keys.get(key) ?? null);
      const named = path ? `${path}.${key}` : key;
      // an answer that holds anything there (a record, a union) takes any key below it
      if (at.some((t) => t === null)) continue;
      if (known.length === 0) out.push(named);
      else if (!known.some((t) => t === null)) walk(child, known, named);
    }
  };
  walk(keyTree(read), trees, '');
  return out;
}
