/**
 * Which fields of a legacy body the legacy schema does not know. Those are dropped by the schema;
 * the engine reports each one (field path, per route) so nothing is dropped silently.
 */
import type { z } from 'zod';

/** Known keys per object level; null where anything goes (records such as metadata). */
export type KeyTree = { readonly keys: ReadonlyMap<string, KeyTree | null>; readonly items?: KeyTree | null } | null;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The key tree of a zod schema, computed once per mapping at load. */
export function keyTree(schema: z.ZodType): KeyTree {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const keys = new Map<string, KeyTree | null>();
      for (const [key, child] of Object.entries(def.shape ?? {})) keys.set(key, keyTree(child));
      return { keys };
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return keyTree(def.innerType!);
    case 'pipe':
      // a preprocess (transform, then schema) is known by the schema it feeds
      return defOf(def.in!).type === 'transform' ? keyTree(def.out!) : keyTree(def.in!);
    case 'array': {
      const items = keyTree(def.element!);
      return items === null ? null : { keys: new Map(), items };
    }
    default:
      return null;
  }
}

/** Dotted paths (`items[0].colour`) of keys in `value` that the tree does not know. */
export function unknownFields(tree: KeyTree, value: unknown, path = '', found: string[] = []): string[] {
  if (tree === null || value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    if (tree.items !== undefined) value.forEach((v, i) => unknownFields(tree.items!, v, `${path}[${i}]`, found));
    return found;
  }
  if (tree.items !== undefined) return found;
  for (const key of Object.keys(value)) {
    const child = tree.keys.get(key);
    // a path is written only where it is reported or walked into, not for every known scalar
    if (child === undefined) found.push(path ? `${path}.${key}` : key);
    else if (child !== null) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== null && typeof v === 'object') unknownFields(child, v, path ? `${path}.${key}` : key, found);
    }
  }
  return found;
}
