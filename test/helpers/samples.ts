/**
 * Sample values of a zod schema, derived from the schema alone: `sparse`, the least it allows (every
 * optional key absent, every nullable one null, lists empty where they may be), and `full`, every key
 * present with a value. Leaves are picked from a few candidates (ids of each kind, timestamps, dates,
 * e-mail addresses, URLs) by what the leaf's own checks accept, so refinements need no special case.
 * Each whole sample is checked against its schema: a generator that cannot fit a schema says where.
 */
import type { z } from 'zod';
import { ID_PREFIX } from '../../src/contract/ids.js';
import { transactionDetail } from '../../src/contract/current-responses.js';

export type SampleMode = 'sparse' | 'full';

interface Def {
  type: string;
  checks?: { _zod: { def: { format?: string; prefix?: string } } }[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  items?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const STRINGS = [
  'sample',
  ...Object.values(ID_PREFIX).map((prefix) => `${prefix}sample1`),
  '2026-01-02T03:04:05.000Z',
  '2026-01-02',
  'shopper@example.com',
  'https://shop.example/return',
  '9a1a9958-7128-4cf3-87b0-0f7d0f000001',
  'AUD',
  'AU',
  'card_sample1',
  '123456-1234****',
  '0'.repeat(64),
  '123',
  '123456',
  '12345678',
  '+61412345678',
  '51824753556',
];
/** A string's candidates: one per prefix its checks require (`startsWith('custd_')`), then the common ones. */
const stringsOf = (def: Def): string[] => [
  ...(def.checks ?? []).flatMap((c) =>
    c._zod.def.format === 'starts_with' && c._zod.def.prefix !== undefined ? [`${c._zod.def.prefix}sample1`] : [],
  ),
  ...STRINGS,
];
const NUMBERS = [100, 1, 0, 0.5];

function first<T>(schema: z.ZodType, candidates: readonly T[], path: string): T {
  const fit = candidates.find((c) => schema.safeParse(c).success);
  if (fit === undefined) throw new Error(`samples: no candidate fits ${path || 'the value'} (${defOf(schema).type})`);
  return fit;
}

/** Whether a key of this schema may be left out of its object. */
const mayBeAbsent = (schema: z.ZodType): boolean => {
  const type = defOf(schema).type;
  return type === 'optional' || type === 'unknown' || type === 'any' || type === 'undefined';
};

function value(schema: z.ZodType, mode: SampleMode, path: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        if (mode === 'sparse' && mayBeAbsent(child)) continue;
        out[key] = value(child, mode, path ? `${path}.${key}` : key);
      }
      return out;
    }
    case 'optional':
      return mode === 'sparse' ? undefined : value(def.innerType!, mode, path);
    case 'nullable':
      return mode === 'sparse' ? null : value(def.innerType!, mode, path);
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return value(def.innerType!, mode, path);
    case 'pipe':
      // a preprocess (a transform, then the schema) is sampled by the schema it feeds
      return defOf(def.in!).type === 'transform' ? value(def.out!, mode, path) : value(def.in!, mode, path);
    case 'lazy':
      return value(def.getter!(), mode, path);
    case 'string':
      return first(schema, stringsOf(def), path);
    case 'number':
    case 'int':
      return first(schema, NUMBERS, path);
    case 'boolean':
      return first(schema, mode === 'full' ? [true, false] : [false, true], path);
    case 'literal':
      return def.values![0];
    case 'enum':
      return Object.values(def.entries!)[0];
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'unknown':
    case 'any':
      return mode === 'sparse' ? null : 'sample';
    case 'array': {
      const one = [value(def.element!, mode, `${path}[0]`)];
      return mode === 'sparse' && schema.safeParse([]).success ? [] : one;
    }
    case 'tuple':
      return def.items!.map((item, i) => value(item, mode, `${path}[${i}]`));
    case 'record':
      return mode === 'sparse' && schema.safeParse({}).success
        ? {}
        : { sample: value(def.valueType!, mode, `${path}.sample`) };
    case 'union': {
      for (const option of def.options!) {
        try {
          const v = value(option, mode, path);
          if (schema.safeParse(v).success) return v;
        } catch {
          // the next option
        }
      }
      throw new Error(`samples: no option of the union at ${path || 'the top'} can be sampled`);
    }
    case 'intersection':
      return { ...(value(def.left!, mode, path) as object), ...(value(def.right!, mode, path) as object) };
    default:
      throw new Error(`samples: cannot sample a ${def.type} at ${path || 'the top'}`);
  }
}

/** A sample of `schema`, checked against it. */
export function sampleOf(schema: z.ZodType, mode: SampleMode): unknown {
  const v = value(schema, mode, '');
  const checked = schema.safeParse(v);
  if (!checked.success)
    throw new Error(`samples: the ${mode} sample does not fit its schema: ${JSON.stringify(checked.error.issues[0])}`);
  return v;
}

/** The paths of an object schema's keys that are required (neither optional nor defaulted), at every depth of nested objects. */
export function requiredPaths(schema: z.ZodType, path = ''): string[] {
  const def = defOf(schema);
  if (def.type === 'nullable' || def.type === 'readonly' || def.type === 'nonoptional')
    return requiredPaths(def.innerType!, path);
  if (def.type !== 'object') return [];
  return Object.entries(def.shape ?? {}).flatMap(([key, child]) => {
    if (mayBeAbsent(child) || defOf(child).type === 'default' || defOf(child).type === 'prefault') return [];
    const at = path ? `${path}.${key}` : key;
    return [at, ...requiredPaths(child, at)];
  });
}

/**
 * What an origin that only records the calls reaching it answers, so that a translated read maps back:
 * a transaction detail (the schema's full sample) for `GET /transactions/{id}`, `{}` for anything else.
 */
export function readableAnswer(method: string | undefined, url: string | undefined): string {
  if (method !== 'GET' || !url?.startsWith('/transactions/tran_')) return '{}';
  const detail = sampleOf(transactionDetail, 'full') as { purchaseDetails: { transactionId: string } };
  detail.purchaseDetails.transactionId = url.slice('/transactions/'.length).split('?')[0]!;
  return JSON.stringify(detail);
}
