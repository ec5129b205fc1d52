/**
 * A write's effect, judged from its translated request: every field the call sets is looked for in
 * the state the legacy write left (or judged by the mapping's rule for it), the action's fields the
 * call leaves unset are judged as the check says (a create: none), and what cannot be judged is named.
 * Nothing is listed beside the mapping: a field the translation adds, drops or changes is seen.
 */
import { CURRENT_ROUTES } from '../contract/current-routes.js';
import { ACTION_VARIANTS } from '../contract/zod-helpers.js';
import {
  unlike,
  valueAt,
  type EffectMismatch,
  type FieldRule,
  type WriteCheck,
  type WriteOutcome,
} from '../translate/define.js';
import { isObj, type Obj } from '../translate/shape.js';
import { toLegacyKey } from '../translate/vocabulary.js';

export interface EffectJudgement {
  /** `request`: the translation asks other than the client asked, for a field no state shows (`$asked.<field>`). */
  mismatches: (EffectMismatch & { request?: true })[];
  /** Fields the call sets that nothing the current API shows can confirm, each with why (`sendEmail (...)`). */
  notComparable: string[];
}

/** Current call (`POST /orders`) -> action wrapper -> the fields its request schema allows. */
const ACTION_FIELDS = new Map<string, Map<string, readonly string[]>>();
for (const route of CURRENT_ROUTES) {
  const variants = route.body ? ACTION_VARIANTS.get(route.body) : undefined;
  if (!variants) continue;
  const fields = new Map<string, readonly string[]>();
  for (const [name, schema] of Object.entries(variants)) {
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    fields.set(name, shape ? Object.keys(shape) : []);
  }
  ACTION_FIELDS.set(`${route.method} ${route.path}`, fields);
}

/** The action of a current body: its wrapper's name and fields (`{PayByCard: {...}}`), or the body itself. */
function actionOf(
  call: string,
  body: unknown,
  fields: Obj | undefined,
): { wrapper: string | undefined; action: Obj; allowed: readonly string[] } {
  const variants = ACTION_FIELDS.get(call);
  const wrapper = isObj(body) && variants ? Object.keys(body).find((k) => variants.has(k)) : undefined;
  const inner = wrapper ? (body as Obj)[wrapper] : body;
  const action = fields ?? (isObj(inner) ? inner : {});
  return { wrapper, action, allowed: (wrapper && variants?.get(wrapper)) || [] };
}

const ruleAbove = (rules: Readonly<Record<string, unknown>>, path: string): boolean => {
  for (let at = path; ;) {
    if (Object.hasOwn(rules, at)) return true;
    const dot = at.lastIndexOf('.');
    if (dot < 0) return false;
    at = at.slice(0, dot);
  }
};

/** Whether `root` holds a key at the dotted path (a null value is held; a missing key is not shown). */
function holds(root: unknown, path: string): boolean {
  const dot = path.lastIndexOf('.');
  const parent = dot < 0 ? root : valueAt(root, path.slice(0, dot));
  return isObj(parent) && Object.hasOwn(parent, dot < 0 ? path : path.slice(dot + 1));
}

/**
 * The effect of the translated call `call` with body `body` (its action's fields `fields`, as
 * completed by a preflight) judged on `state` (undefined: no state read, nothing judged on it).
 */
export function judgeEffect(
  check: WriteCheck,
  call: string,
  body: unknown,
  fields: Obj | undefined,
  state: unknown,
  outcome: WriteOutcome,
  dropped: readonly string[] = [],
): EffectJudgement {
  const { wrapper, action, allowed } = actionOf(call, body, fields);
  const spec = check.effect;
  const rules: Record<string, FieldRule<unknown>> = {};
  const reasons: Record<string, string> = {};
  for (const [path, rule] of Object.entries(spec?.fields ?? {}))
    if (typeof rule === 'string') reasons[path] = rule;
    else rules[path] = rule;
  const pairs: Record<string, [unknown, unknown]> = {};
  const requested: Record<string, [unknown, unknown]> = {};
  const unjudged = new Map<string, string>();
  const unsetAbsent = spec?.unset === 'absent';
  const root = state !== undefined && spec ? spec.at(state, outcome) : undefined;
  const noState = check.removes ? 'the resource is gone' : 'no current state shows this call';
  /** Why the state cannot confirm the field at `path`, or undefined when it shows it. */
  const unseen = (path: string): string | undefined =>
    reasons[path] ?? (root === undefined ? noState : holds(root, path) ? undefined : 'the state read does not show it');

  const walk = (value: Obj, base: string, found: unknown): void => {
    for (const [key, asked] of Object.entries(value)) {
      if (asked === undefined) continue;
      const path = base ? `${base}.${key}` : key;
      if (ruleAbove(rules, path)) continue;
      const why = unseen(path);
      if (why !== undefined) {
        unjudged.set(path, why);
        // what no state shows is held to what the client asked under the same name (middleName, SendEmail)
        const legacy = base ? undefined : legacyCounterpart(outcome.body, key, dropped);
        if (legacy !== undefined) requested[path] = [legacy, asked];
      } else if (isObj(asked) && Object.keys(asked).length > 0) walk(asked, path, valueAt(root, path));
      else pairs[path] = [asked, valueAt(root, path)];
    }
    // a create's nested object holds nothing the call did not set (a dropped shipping.phoneNumber)
    if (base && unsetAbsent && isObj(found))
      for (const [key, held] of Object.entries(found))
        if (value[key] === undefined && held !== null && held !== undefined)
          pairs[`${base}.${key}`] = [undefined, held];
  };
  walk(action, '', root);

  // the action's fields the call leaves unset: none held by a create's state, and none the client asked for
  for (const key of allowed) {
    if (action[key] !== undefined || Object.hasOwn(rules, key)) continue;
    const why = unseen(key);
    if (why === undefined && unsetAbsent) {
      const held = valueAt(root, key);
      if (held !== null && held !== undefined) pairs[key] = [undefined, held];
    }
    const legacy = legacyCounterpart(outcome.body, key, dropped);
    if (legacy === undefined) continue;
    requested[key] = [legacy, undefined];
    if (why !== undefined) unjudged.set(key, why);
  }

  for (const [path, rule] of Object.entries(rules)) {
    const value = valueAt(action, path);
    const verdict = rule({ asked: value, action, wrapper, state, outcome });
    if (Array.isArray(verdict)) pairs[path] = verdict;
    else if (typeof verdict === 'string') unjudged.set(path, verdict);
    // a field the rule has nothing to judge on, left unset though the client asked it (request3DS dropped)
    const legacy =
      value === undefined && allowed.includes(path) ? legacyCounterpart(outcome.body, path, dropped) : undefined;
    if (legacy !== undefined && verdict === undefined) requested[path] = [legacy, undefined];
  }
  const mismatches: EffectJudgement['mismatches'] = unlike(pairs);
  for (const m of unlike(requested)) mismatches.push({ field: m.field, asked: m.found, found: m.asked, request: true });
  if (state !== undefined && spec?.also) mismatches.push(...spec.also(state, outcome));
  // one entry per reason: `sendSms, sendEmail (the current API shows no message sent)`
  const byReason = new Map<string, string[]>();
  for (const [path, why] of unjudged) byReason.set(why, [...(byReason.get(why) ?? []), path]);
  return { mismatches, notComparable: [...byReason].map(([why, paths]) => `${paths.join(', ')} (${why})`) };
}

/**
 * The value a legacy body gives for the current field `field`: under its own name, its legacy name
 * (the vocabulary), or a name differing only in case (the .NET SDK's `SendEmail`, `returnURL`); a
 * blank value is none (the legacy service took `null` and `""` as absent), as is a field the
 * translation dropped and reported (the legacy contract's own decision: L13's isVerified).
 */
function legacyCounterpart(body: unknown, field: string, dropped: readonly string[]): unknown {
  if (!isObj(body)) return undefined;
  const usable = (k: string) => Object.hasOwn(body, k) && !blank(body[k]) && !dropped.includes(k);
  const named = [field, toLegacyKey(field)].find(usable);
  if (named !== undefined) return body[named];
  const lower = field.toLowerCase();
  const like = Object.keys(body).find((k) => k.toLowerCase() === lower && usable(k));
  return like === undefined ? undefined : body[like];
}

const blank = (v: unknown) => v === undefined || v === null || v === '';
