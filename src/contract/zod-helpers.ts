import { z } from 'zod';
import { hasIdForm, ID_PREFIX, type IdKind } from './ids.js';

/** Largest amount accepted anywhere, in minor units (one billion currency units). */
const MAX_MINOR_UNITS = 100_000_000_000;

export const amountInt = (min = 0) => z.int().min(min).max(MAX_MINOR_UNITS);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'expected a three-letter upper-case currency code');

/** The ISO 4217 currency codes in use, as the runtime's ICU knows them. */
const ISO_4217 = new Set(Intl.supportedValuesOf('currency'));

/** A currency the service takes: an ISO 4217 code in use (the translator leaves this to the service: D-MAP-2). */
export const isoCurrency = currencyCode.refine((code) => ISO_4217.has(code), {
  message: 'expected an ISO 4217 currency code',
});
export const shortText = z.string().max(255);
export const longText = z.string().max(2000);
export const phone = z.string().regex(/^\+?[0-9 ()-]{3,32}$/, 'expected a phone number in international format');
export const email = z.email().max(320);
export const countryCode = z.string().regex(/^[A-Z]{2}$/, 'expected a two-letter country code');

/** An id of the given kind: its prefix followed by [A-Za-z0-9_-]. */
export const idOf = (kind: IdKind) =>
  z.string().refine((v) => hasIdForm(kind, v), { message: `expected an id with prefix ${ID_PREFIX[kind]}` });

/** A free-form JSON object, carried unchanged. */
export const metadata = z.record(z.string(), z.unknown());

export const address = z.strictObject({
  line1: shortText.optional(),
  line2: shortText.optional(),
  city: shortText.optional(),
  state: shortText.optional(),
  postalCode: z.string().max(16).optional(),
  country: countryCode.optional(),
});

type ActionOf<T extends Record<string, z.ZodType>> = {
  [K in keyof T]: { [P in K]: z.output<T[K]> };
}[keyof T];

/**
 * A wrapper object whose single key (the discriminator) names the action, as the current API's
 * `{"CreateRefund": {...}}`. An unknown or missing key names the allowed ones in the error.
 */
/** The variants of each action wrapper, for documents that describe it (OpenAPI). */
export const ACTION_VARIANTS = new WeakMap<z.ZodType, Record<string, z.ZodType>>();

export function actionWrapper<T extends Record<string, z.ZodType>>(variants: T) {
  const names = Object.keys(variants);
  const expected = `expected an object with exactly one of ${names.join(', ')}`;
  const schema = z.unknown().transform((input, ctx): ActionOf<T> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: 'custom', message: expected, input });
      return z.NEVER;
    }
    const keys = Object.keys(input);
    const key = keys[0];
    if (keys.length !== 1 || key === undefined || !Object.hasOwn(variants, key)) {
      const unknownKey = keys.find((k) => !Object.hasOwn(variants, k));
      ctx.addIssue({
        code: 'custom',
        message: unknownKey === undefined ? expected : `unknown action ${JSON.stringify(unknownKey)}; ${expected}`,
        path: unknownKey === undefined ? [] : [unknownKey],
        input,
      });
      return z.NEVER;
    }
    const result = (variants[key] as z.ZodType).safeParse((input as Record<string, unknown>)[key]);
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ ...issue, path: [key, ...issue.path] });
      }
      return z.NEVER;
    }
    return { [key]: result.data } as ActionOf<T>;
  });
  ACTION_VARIANTS.set(schema, variants);
  return schema;
}

type Issue = z.ZodError['issues'][number];

/** `a.b[2].c: message` for the first issue: the field the caller must fix. */
export function describeIssues(error: z.ZodError, root = ''): string {
  let issue: Issue | undefined = error.issues[0];
  if (!issue) return root || 'body';
  // a union (an amount or a money object): the branch whose type fits names the problem
  while (issue.code === 'invalid_union' && (issue as { errors?: Issue[][] }).errors?.length) {
    const branches: Issue[][] = (issue as unknown as { errors: Issue[][] }).errors;
    const fitting: Issue[] =
      branches.find((b) => b[0] !== undefined && !(b[0].code === 'invalid_type' && b[0].path.length === 0)) ??
      branches[0]!;
    const inner: Issue | undefined = fitting[0];
    if (!inner) break;
    issue = { ...inner, path: [...issue.path, ...inner.path] };
  }
  let path = root;
  for (const part of issue.path) {
    if (typeof part === 'number') path += `[${part}]`;
    else path += path ? `.${String(part)}` : String(part);
  }
  if (issue.code === 'invalid_key') {
    const inner = (issue as { issues?: { message: string }[] }).issues?.[0];
    if (inner) return `${path || 'body'}: ${inner.message}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const key = (issue as { keys: string[] }).keys[0] ?? '';
    return `${path ? `${path}.` : ''}${key}: unknown field`;
  }
  // a field left out: zod's "Invalid input: expected string, received undefined" said plainly
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))
    return `${path || 'body'}: required (${(issue as { expected?: string }).expected ?? 'a value'})`;
  // a number a double cannot hold is parsed as an ExactNumber: not a class name a client knows
  return `${path || 'body'}: ${issue.message.replace(/received ExactNumber$/, 'received a number with more digits than a double holds')}`;
}

/**
 * An optional field of a legacy body: `null` and `""` are absent, not validated and not forwarded
 * (legacy-api.md section 0: shops without a shipping address send empty strings, SDKs send nulls).
 */
export const blankable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional());

/**
 * A legacy count: an integer, also written as PHP and Magento write quantities (`1.0`, `"1.0000"`).
 * A count that is not whole is refused.
 */
export const legacyCount = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d{1,9}(\.\d{1,8})?\s*$/.test(v) ? Number(v) : v),
    z.int().min(min).max(max),
  );

/** A legacy reference id: a string, or a number as PHP plugins send a shop's own id (`42`). */
export const legacyReference = z.preprocess(
  (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v),
  z.string().min(1).max(255),
);

/**
 * A legacy pay plan variant (L20): its name (`PayPlan_Fortnight_25_25_25_25`) as a string, or an object
 * whose single key names it (legacy-api.md section 4). The name's shape is checked here; whether the
 * service has such a variant is the service's to say.
 */
export const legacyPayPlanVariant = z.union([
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a pay plan variant name'),
  z
    .record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a pay plan variant name'), z.unknown())
    .refine((o) => Object.keys(o).length === 1, 'expected an object naming one variant'),
]);

/** The variant's name from either form of a legacy pay plan variant. */
export const legacyVariantName = (variant: string | Record<string, unknown>): string =>
  typeof variant === 'string' ? variant : Object.keys(variant)[0]!;

/** A calendar date, `YYYY-MM-DD`. */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');
