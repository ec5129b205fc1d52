/**
 * The small declarative language mappings use to describe a body: per legacy key, where its value goes
 * in the current body (forward) and how to rebuild it from a current body (backward). The engine
 * walks; keys without a rule are renamed through the vocabulary, and metadata is never entered.
 */
import { toCurrentKey, toLegacyKey, VERBATIM_KEY, vocabularyToCurrent, vocabularyToLegacy } from './vocabulary.js';

export type Obj = Record<string, unknown>;

const RULE = Symbol('paybridge.rule');

/** What a rule does for one legacy key, once bound to that key. */
interface BoundRule {
  /** Writes the legacy value into the current object being built. */
  forward?: (value: unknown, out: Obj, legacy: Obj) => void;
  /** The legacy value read from a current object; undefined leaves the key out. */
  backward?: (current: Obj) => unknown;
  /** Current keys the rule accounts for (an open shape does not copy them again). */
  currentKeys: readonly string[];
  /** Other legacy keys the rule consumes in forward (they get no rule of their own). */
  consumes?: readonly string[];
}

export interface Rule {
  readonly [RULE]: true;
  bind(legacyKey: string): BoundRule;
}

/** Per legacy key: a Rule, a string (rename), or a nested shape (same key, walked with that shape). */
export interface ShapeSpec {
  [legacyKey: string]: Rule | string | ShapeSpec;
}

export interface Shape {
  readonly spec: ShapeSpec;
  /** A closed shape builds exactly its listed keys backward; an open one also copies other current keys. */
  readonly closed: boolean;
}

export interface CompiledShape {
  forward(legacy: Obj): Obj;
  backward(current: Obj): Obj;
}

const isRule = (v: unknown): v is Rule => typeof v === 'object' && v !== null && RULE in v;
/** A plain JSON object (not an array, not null). */
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isShape = (v: unknown): v is Shape =>
  isObj(v) && isObj(v.spec) && typeof v.closed === 'boolean' && Object.keys(v).length === 2;

/** A value, each element of an array, or null, passed through f. */
function eachValue(value: unknown, f: (v: Obj) => unknown): unknown {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => (isObj(v) ? f(v) : v));
  return isObj(value) ? f(value) : value;
}

const rule = (bind: (legacyKey: string) => BoundRule): Rule => ({ [RULE]: true, bind });

/** Renamed to `to` (default: the vocabulary's name); the value walked with `inner`, or with the vocabulary. */
export function rename(to?: string, inner?: ShapeSpec | Shape): Rule {
  const compiled = inner === undefined ? undefined : compileShape(inner);
  return rule((key) => {
    const target = to ?? toCurrentKey(key);
    return {
      currentKeys: [target],
      forward: (v, out) => {
        out[target] = compiled ? eachValue(v, (o) => compiled.forward(o)) : vocabularyToCurrent(v);
      },
      backward: (current) => {
        const v = current[target];
        return compiled ? eachValue(v, (o) => compiled.backward(o)) : vocabularyToLegacy(v);
      },
    };
  });
}

/** Carried byte for byte under `to` (default: the same key), never renamed inside. */
export function verbatim(to?: string): Rule {
  return rule((key) => {
    const target = to ?? key;
    return {
      currentKeys: [target],
      forward: (v, out) => {
        out[target] = v;
      },
      backward: (current) => current[target],
    };
  });
}

/** Legacy money `{amount, currency}` as current money `{minorCurrencyUnits, currency}` under `to`. */
export function money(to?: string): Rule {
  return rule((key) => {
    const target = to ?? key;
    return {
      currentKeys: [target],
      forward: (v, out) => {
        const m = v as { amount: number; currency: string };
        out[target] = { minorCurrencyUnits: m.amount, currency: m.currency };
      },
      backward: (current) => {
        const m = current[target] as { minorCurrencyUnits: number; currency: string } | null | undefined;
        return m == null ? m : { amount: m.minorCurrencyUnits, currency: m.currency };
      },
    };
  });
}

/**
 * A flat legacy amount with its currency beside it (`{amount: 500, currency: 'AUD'}`) as one current
 * money object under `to`. Put on the amount key; the currency key is consumed (see flatCurrency).
 */
export function flatMoney(to?: string, currencyKey = 'currency'): Rule {
  return rule((key) => {
    const target = to ?? key;
    return {
      currentKeys: [target],
      consumes: [currencyKey],
      forward: (v, out, legacy) => {
        out[target] = { minorCurrencyUnits: v, currency: legacy[currencyKey] };
      },
      backward: (current) =>
        (current[target] as { minorCurrencyUnits?: number } | null | undefined)?.minorCurrencyUnits,
    };
  });
}

/** The currency half of flatMoney, rebuilt backward from the current money object `of`. */
export function flatCurrency(of: string): Rule {
  return rule(() => ({
    currentKeys: [of],
    backward: (current) => (current[of] as { currency?: string } | null | undefined)?.currency,
  }));
}

/** Legacy `{field: x}` as a bare current value under `to` (`discount: {amount}` -> `discountAmount`). */
export function unwrap(to: string, field: string): Rule {
  return rule(() => ({
    currentKeys: [to],
    forward: (v, out) => {
      out[to] = (v as Obj)[field];
    },
    backward: (current) => {
      const v = current[to];
      return v == null ? v : { [field]: v };
    },
  }));
}

/**
 * Legacy money whose amount alone goes to `to`; its currency is checked elsewhere (a preflight). A
 * bare integer amount (the .NET SDK's captureAmount) goes as it is.
 */
export function amountOnly(to?: string): Rule {
  return rule((key) => {
    const target = to ?? key;
    return {
      currentKeys: [target],
      forward: (v, out) => {
        out[target] = typeof v === 'number' ? v : (v as { amount: number }).amount;
      },
      backward: (current) => (current[target] === undefined ? undefined : { amount: current[target] }),
    };
  });
}

/** Forward: the value through `fn` under `to` (default: the same key); backward: the current value as it is. */
export function mapped(fn: (v: unknown) => unknown, to?: string): Rule {
  return rule((key) => {
    const target = to ?? key;
    return {
      currentKeys: [target],
      forward: (v, out) => {
        out[target] = fn(v);
      },
      backward: (current) => current[target],
    };
  });
}

/**
 * An older or alternative spelling (L31's observed `SendEmail`): renamed to `to`, unless the body also
 * has the preferred legacy key (`to` itself by default), which wins.
 */
export function alias(to: string, preferred: string = to): Rule {
  return rule(() => ({
    currentKeys: [to],
    forward: (v, out, legacy) => {
      if (legacy[preferred] === undefined) out[to] = v;
    },
    backward: (current) => current[to],
  }));
}

/** A legacy field that leaves the body: it went to the path, a header or a query filter. */
export function moved(): Rule {
  return rule(() => ({ currentKeys: [] }));
}

/**
 * The value at a dotted path of the current object, both ways: forward it is written there (the objects
 * on the way made or shared, so two legacy keys may fill one nested object: L24's routing and account
 * numbers into `identifier.AuBankAccountIdentifier`), backward read from there.
 */
export function into(path: string): Rule {
  const parts = path.split('.');
  const last = parts.at(-1)!;
  return rule(() => ({
    currentKeys: [parts[0]!],
    forward: (v, out) => {
      let at = out;
      for (const p of parts.slice(0, -1)) at = isObj(at[p]) ? at[p] : (at[p] = {});
      at[last] = v;
    },
    backward: (current) => {
      let v: unknown = current;
      for (const p of parts) v = isObj(v) ? v[p] : undefined;
      return v;
    },
  }));
}

/** Backward only: the value at a dotted path of the current object, optionally mapped. */
export function from(path: string, map?: (v: unknown) => unknown): Rule {
  const parts = path.split('.');
  return rule(() => ({
    currentKeys: [parts[0]!],
    backward: (current) => {
      let v: unknown = current;
      for (const p of parts) {
        if (!isObj(v)) return v === null ? null : undefined;
        v = v[p];
      }
      return map ? map(v) : v;
    },
  }));
}

/** Backward only: a value computed from the whole current object (the odd small function). */
export function computed(fn: (current: Obj) => unknown): Rule {
  return rule(() => ({ currentKeys: [], backward: fn }));
}

/** Maps enumerated values; a value not listed passes through unchanged. */
export const values =
  (table: Record<string, string>) =>
  (v: unknown): unknown =>
    typeof v === 'string' && Object.hasOwn(table, v) ? table[v] : v;

/** A shape that backward builds only its listed keys (a response whose legacy shape is fixed). */
export const closed = (spec: ShapeSpec): Shape => ({ spec, closed: true });

/**
 * A function returning a new object with `keys` in order, each null: an object literal compiled for
 * this one list of keys (the keys are the mapping's own names, JSON-quoted; no data reaches it), so
 * V8 allocates it from one map at its own site.
 */
function templateOf(keys: readonly string[]): () => Obj {
  // in a literal, `"__proto__": null` would set the prototype instead of defining a key
  if (keys.includes('__proto__')) throw new Error('a closed shape cannot have the key __proto__');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- keys written as JSON strings, never code: the closed shape's object template
  return new Function(`return {${keys.map((key) => `${JSON.stringify(key)}: null`).join(', ')}};`) as () => Obj;
}

function bindRule(key: string, value: Rule | string | ShapeSpec): BoundRule {
  if (isRule(value)) return value.bind(key);
  if (typeof value === 'string') return rename(value).bind(key);
  return rename(undefined, value).bind(key);
}

const cache = new WeakMap<ShapeSpec, { open?: CompiledShape; closed?: CompiledShape }>();

/** Compiles a shape once (cached per spec object and closedness). */
export function compileShape(input: ShapeSpec | Shape): CompiledShape {
  const shape: Shape = isShape(input) ? input : { spec: input, closed: false };
  const slot = cache.get(shape.spec) ?? {};
  const hit = shape.closed ? slot.closed : slot.open;
  if (hit) return hit;
  const rules = new Map<string, BoundRule>();
  const consumed = new Set<string>();
  const covered = new Set<string>();
  for (const [key, value] of Object.entries(shape.spec)) {
    const bound =
      key === VERBATIM_KEY && !isRule(value) && typeof value !== 'string' ? verbatim().bind(key) : bindRule(key, value);
    rules.set(key, bound);
    for (const c of bound.consumes ?? []) consumed.add(c);
    for (const c of bound.currentKeys) covered.add(c);
  }
  const entries = [...rules.entries()].filter(([, r]) => r.backward !== undefined);
  // Objects given more than about a dozen properties one keyed store at a time become hash tables in
  // V8 (slower to fill, to read and to serialise: JSON.stringify of the legacy transaction 2.7 against
  // 2.1 us). A closed shape's backward starts from an object that already has the rules' keys, in
  // order, and only overwrites them; a key whose rule gives undefined is deleted. That object comes
  // from a literal of this shape's own (templateOf): a copy of a template (`{...template}`) is made at
  // one site shared by every closed shape, which V8 then copies by its slow path (a transaction:
  // 1.06 against 0.48 us, and its JSON.stringify 2.0 against 1.2 us). An open shape starts from an
  // empty object instead: on Node 20's V8 a copy made by spreading gets a map of its own, so every key
  // added to it afterwards builds a new map (a five-key order item took 3.3 us against 0.35 us).
  const template = shape.closed ? templateOf(entries.map(([key]) => key)) : undefined;
  const compiled: CompiledShape = {
    forward(legacy) {
      const out: Obj = {};
      for (const key of Object.keys(legacy)) {
        const value = legacy[key];
        if (value === undefined) continue;
        const r = rules.get(key);
        if (r) r.forward?.(value, out, legacy);
        else if (!consumed.has(key)) out[toCurrentKey(key)] = key === VERBATIM_KEY ? value : vocabularyToCurrent(value);
      }
      return out;
    },
    backward(current) {
      if (template) {
        const out = template();
        for (const [key, r] of entries) {
          const v = r.backward!(current);
          if (v === undefined) delete out[key];
          else out[key] = v;
        }
        return out;
      }
      const out: Obj = {};
      for (const [key, r] of entries) {
        const v = r.backward!(current);
        if (v !== undefined) out[key] = v;
      }
      for (const key of Object.keys(current)) {
        if (covered.has(key)) continue;
        const legacyKey = toLegacyKey(key);
        if (Object.hasOwn(out, legacyKey) || current[key] === undefined) continue;
        out[legacyKey] = key === VERBATIM_KEY ? current[key] : vocabularyToLegacy(current[key]);
      }
      return out;
    },
  };
  cache.set(shape.spec, shape.closed ? { ...slot, closed: compiled } : { ...slot, open: compiled });
  return compiled;
}

/**
 * A nested legacy object whose fields sit directly in the current object (forward), rebuilt from
 * those fields backward: `paymentActionRequired: {threeDSAuthorisationId}` -> `threeDSAuthorisationId`.
 */
export function flatten(inner: ShapeSpec): Rule {
  const compiled = compileShape(inner);
  const innerKeys = new Set(Object.values(inner).flatMap((v) => (typeof v === 'string' ? [v] : [])));
  return rule(() => ({
    currentKeys: [...innerKeys],
    forward: (v, out) => {
      if (isObj(v)) Object.assign(out, compiled.forward(v));
    },
    backward: (current) => {
      const nested = compiled.backward(current);
      return Object.keys(nested).length > 0 ? nested : undefined;
    },
  }));
}
