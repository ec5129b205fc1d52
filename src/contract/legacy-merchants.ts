/**
 * The legacy platform-merchant bodies as the legacy reference defines them (legacy-api.md, L21, L23,
 * L24): one statement for the gateway's mappings and the sandbox's legacy face.
 */
import { z } from 'zod';
import { businessProfileFields } from './current-requests.js';
import { countryCode, email, isoCurrency } from './zod-helpers.js';

/** L21 (reference): `dashboardReferrer` is taken and not kept (CreateServiceProviderSubmerchant has no place for it). */
export const legacyOnboardingBody = z.object({
  slug: z.string().regex(/^[a-z0-9-]{2,64}$/, 'expected 2-64 lower-case letters, digits or dashes'),
  businessName: z.string().min(1).max(255),
  contactEmail: email,
  taxCountry: z.enum(['AU', 'NZ', 'ZA']),
  tradingCountry: countryCode.optional(),
  dashboardReferrer: z.enum(['Platform', 'Merchant']).optional(),
});

const { timeZone, businessType, companyType, website, supportSite, industry } = businessProfileFields;

/** L23 (reference: UpdatePlatformMerchant): the profile is given whole; a company says whether it is private or public. */
export const legacyBusinessProfileBody = z
  .object({
    timeZone: timeZone.unwrap(),
    businessName: z.string().min(1).max(255),
    businessType: businessType.unwrap(),
    companyType,
    website: website.unwrap(),
    supportSite: supportSite.unwrap(),
    industry: industry.unwrap(),
  })
  .refine((v) => v.businessType !== 'company' || v.companyType !== undefined, {
    path: ['companyType'],
    message: 'expected Private or Public for a company',
  });

/**
 * L24 (reference): an account with its routing number (a BSB). The current action's identifier has an
 * Australian form only, so an account of another country is refused rather than misfiled;
 * `referenceAccountId` is taken and not kept.
 */
export const legacyBankAccountBody = z.object({
  accountName: z.string().min(1).max(140),
  accountNumber: z.string().regex(/^\d{4,10}$/, 'expected 4-10 digits'),
  country: z.literal('AU', 'expected AU: the current bank-account identifier has an Australian (BSB) form only'),
  currency: isoCurrency,
  routingNumber: z.string().regex(/^\d{3}-?\d{3}$/, 'expected a six-digit BSB'),
  bankName: z.string().min(1).max(140).optional(),
  setAsPrimary: z.boolean().optional(),
  referenceAccountId: z.string().max(255).optional(),
});
