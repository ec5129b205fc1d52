/**
 * Request bodies of the current API's merchants and their people (current-api.md, the current
 * reference's merchant operations, current-api-decisions.md "Merchants"): create, update, files,
 * beneficial owners. Strict: a field the current API does not know is a 400 naming it.
 */
import { z } from 'zod';
import { actionWrapper, address, countryCode, email, idOf, isoCurrency, isoDate } from './zod-helpers.js';

/** The business profile's fields beyond the name (reference: UpdatePlatformMerchant's; current-api-decisions.md, Merchants). */
export const businessProfileFields = {
  timeZone: z
    .string()
    .regex(/^[A-Za-z_]+(?:\/[A-Za-z_+-]+)*$/, 'expected an IANA time zone such as Australia/Sydney')
    .optional(),
  businessType: z.enum(['company', 'individual', 'soletrader', 'partnership', 'trust']).optional(),
  companyType: z.enum(['Private', 'Public']).optional(),
  website: z.url().max(2000).optional(),
  supportSite: z.url().max(2000).optional(),
  industry: z.string().min(1).max(255).optional(),
};
const businessName = z.string().min(1).max(255);

/** Create Merchant (reference: a oneOf by kind; the service-provider sub-merchant is the one shown). */
export const merchantCreateRequest = actionWrapper({
  CreateServiceProviderSubmerchant: z.strictObject({
    slug: z.string().regex(/^[a-z0-9-]{2,64}$/, 'expected 2-64 lower-case letters, digits or dashes'),
    businessProfile: z.strictObject({ businessName, ...businessProfileFields }),
    contactEmailAddress: email,
    taxCountry: countryCode,
    tradingCountry: countryCode.optional(),
  }),
});

export const merchantUpdateRequest = actionWrapper({
  UpdateMerchantBusinessProfile: z
    .strictObject({
      businessName: businessName.optional(),
      ...businessProfileFields,
      contactEmailAddress: email.optional(),
      tradingCountry: countryCode.optional(),
    })
    .refine((v) => Object.keys(v).length > 0, { message: 'expected at least one field to update' }),
  /** Reference: the account number sits in a tagged identifier; `setAsPrimary` absent keeps D-MER-4's rule. */
  AddMerchantBankAccount: z.strictObject({
    accountName: z.string().min(1).max(140),
    bankName: z.string().min(1).max(140).optional(),
    identifier: z.strictObject({
      AuBankAccountIdentifier: z.strictObject({
        bsb: z.string().regex(/^\d{3}-?\d{3}$/, 'expected a six-digit BSB'),
        accountNumber: z.string().regex(/^\d{4,10}$/, 'expected 4-10 digits'),
      }),
    }),
    currency: isoCurrency,
    setAsPrimary: z.boolean().optional(),
  }),
  SetMerchantPrimaryBankAccount: z.strictObject({ bankAccountId: idOf('bankAccount') }),
  SetMerchantIndustry: z.strictObject({
    industryCode: z.string().regex(/^[A-Z]$/, 'expected an industry code of GET /industries'),
  }),
});

export const merchantFileRequest = actionWrapper({
  UploadMerchantFile: z.strictObject({
    // eslint-disable-next-line no-control-regex -- a file name holds no control character
    fileName: z.string().regex(/^[^/\\\x00-\x1f]{1,128}$/, 'expected a file name of 1-128 characters, no slashes'),
    contentType: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
    purpose: z.enum(['IdentityDocument', 'BankStatement', 'BusinessRegistration', 'Other']),
    contentBase64: z
      .string()
      .min(4)
      .max(700_000)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'expected base64'),
  }),
});

const ownerDocument = z.record(z.string(), z.unknown());
/** A merchant's person (docs/decisions.md D-BO-1, D-BO-2): an owner holds a share, an executive or director may hold none. */
const beneficialOwnerFields = z.strictObject({
  title: z.string().min(1).max(255).optional(),
  roles: z
    .array(z.enum(['Executive', 'Owner', 'Director']))
    .min(1)
    .optional(),
  givenName: z.string().min(1).max(100),
  middleName: z.string().max(100).optional(),
  familyName: z.string().min(1).max(100),
  dateOfBirth: isoDate,
  ownershipPercentage: z.number().min(0).max(100),
  emailAddress: email.optional(),
  phoneNumber: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'expected a phone number in E.164 form')
    .optional(),
  address: address.optional(),
  verificationDocs: z.array(ownerDocument).optional(),
  passport: ownerDocument.optional(),
  driverLicence: ownerDocument.optional(),
});
export const beneficialOwnerCreateRequest = actionWrapper({ CreateBeneficialOwner: beneficialOwnerFields });
/** Replace gives the person again; a share left out keeps the one held (the legacy person, L32, has none). */
export const beneficialOwnerUpdateRequest = actionWrapper({
  ReplaceBeneficialOwner: beneficialOwnerFields.partial({ ownershipPercentage: true }),
});
