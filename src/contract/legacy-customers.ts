/**
 * The legacy customer bodies as the legacy reference names their fields and as older clients did
 * (legacy-api.md, L13 and L18): one set of fields for the gateway's mappings and the sandbox's legacy
 * face, each field under both spellings; where both come, the reference's wins.
 */
import { z } from 'zod';
import { blankable, email, legacyReference, phone, shortText } from './zod-helpers.js';

const name = z.string().min(1).max(255);
const abn = z.string().regex(/^\d{11}$/, 'expected an 11-digit ABN');

/** L13's fields: the reference's names and the older ones (email, phoneno, firstName, lastName). */
export const consumerFields = {
  internalCustomerId: blankable(legacyReference),
  emailAddress: blankable(email),
  email: blankable(email),
  phoneNumber: blankable(phone),
  phoneno: blankable(phone),
  givenName: blankable(shortText),
  firstName: blankable(shortText),
  middleName: blankable(shortText),
  familyName: blankable(shortText),
  lastName: blankable(shortText),
};

/** L18's fields: the reference's names (organisationName, taxId, emailAddress) and the older ones. */
export const organisationFields = {
  internalCustomerId: blankable(legacyReference),
  organisationName: blankable(name),
  businessName: blankable(name),
  emailAddress: blankable(email),
  email: blankable(email),
  phoneno: blankable(phone),
  taxId: blankable(abn),
  abn: blankable(abn),
};

/** The object, with each required field given under one of its two names (`[reference, older]`). */
export function eitherName<T extends z.ZodObject>(schema: T, required: readonly (readonly [string, string])[]) {
  return schema.superRefine((body, ctx) => {
    for (const [reference, older] of required) {
      const given = body as Record<string, unknown>;
      if (given[reference] === undefined && given[older] === undefined)
        ctx.addIssue({ code: 'custom', path: [reference], message: `required (or ${older})` });
    }
  });
}

export const CONSUMER_REQUIRED = [['emailAddress', 'email']] as const;
export const ORGANISATION_REQUIRED = [
  ['organisationName', 'businessName'],
  ['emailAddress', 'email'],
] as const;
