import { z } from 'zod';
import { hasIdForm, ID_PREFIX, type IdKind } from './ids.js';

/** Largest amount accepted anywhere, in minor units (one billion currency units). */
export const MAX_MINOR_UNITS = 100_000_000_000;

export const amountInt = (min = 0) => z.int().min(min).max(MAX_MINOR_UNITS);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'expected a three-letter upper-case currency code');
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
export function actionWrapper<T extends Record<string, z.ZodType>>(variants: T) {
  const names = Object.keys(variants);
  const expected = `expected an object with exactly one of ${names.join(', ')}`;
  return z.unknown().transform((input, ctx): ActionOf<T> => {
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
        ctx.addIssue({ ...issue, path: [key, ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
      }
      return z.NEVER;
    }
    return { [key]: result.data } as ActionOf<T>;
  });
}

/** `a.b[2].c: message` for the first issue: the field the caller must fix. */
export function describeIssues(error: z.ZodError, root = ''): string {
  const issue = error.issues[0];
  if (!issue) return root || 'body';
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
  return `${path || 'body'}: ${issue.message}`;
}
