import { z } from 'zod';
import { countryCode, email } from '../src/contract/zod-helpers.js';
import type { beneficialOwnerResponse } from '../src/contract/current-responses.js';
import { legacyPersonBody } from '../src/contract/legacy-person.js';
import { defineMapping, toBody, toHeader, toPath } from '../src/translate/define.js';
import { closed } from '../src/translate/shape.js';
import { LEGACY_MERCHANT } from './shapes.js';
import { MERCHANT_ANSWER, ok } from './answers.js';

const platformMerchant = { platformId: toHeader('Marketplace-Id', 'marketplace'), merchantId: toPath('merchantId', 'merchant') };
const merchantResponse = { shape: LEGACY_MERCHANT } as const;

export const onboardMerchant = defineMapping({
  route: 'L21',
  tier: 2,
  description: 'Onboard a sub-merchant with the platform API key: CreateMerchant (contactEmail -> contactEmailAddress); answered {merchantId}.',
  legacy: 'POST /marketplaces/onboarding',
  current: 'POST /merchants',
  body: z.object({
    slug: z.string().regex(/^[a-z0-9-]{2,64}$/, 'expected 2-64 lower-case letters, digits or dashes'),
    businessName: z.string().min(1).max(255),
    contactEmail: email,
    taxCountry: countryCode,
    tradingCountry: countryCode,
  }),
  request: { wrap: 'CreateMerchant' },
  response: { shape: closed({ merchantId: 'merchantId' }) },
  answers: ok(z.object({ merchantId: z.string().startsWith('mcht_') })),
});

export const getMerchant = defineMapping({
  route: 'L22',
  tier: 2,
  description: 'Read a sub-merchant: GET /merchants/{merchantId} with Marketplace-Id; marketplaceId is answered as platformId.',
  legacy: 'GET /platforms/{platformId}/merchants/{merchantId}',
  current: 'GET /merchants/{merchantId}',
  params: platformMerchant,
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
});

export const updateBusinessProfile = defineMapping({
  route: 'L23',
  tier: 2,
  description: 'Update a sub-merchant business profile: a PATCH on the merchant with UpdateMerchantBusinessProfile.',
  legacy: 'PUT /platforms/{platformId}/merchants/{merchantId}/businessProfile',
  current: 'PATCH /merchants/{merchantId}',
  params: platformMerchant,
  body: z
    .object({ businessName: z.string().min(1).max(255).optional(), contactEmail: email.optional(), tradingCountry: countryCode.optional() })
    .refine((v) => v.businessName !== undefined || v.contactEmail !== undefined || v.tradingCountry !== undefined, {
      message: 'expected at least one field to update',
    }),
  request: { wrap: 'UpdateMerchantBusinessProfile' },
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
  readback: ({ params }) => `/platforms/${params.platformId}/merchants/${params.merchantId}`,
});

export const addBankAccount = defineMapping({
  route: 'L24',
  tier: 2,
  description: 'Add a payout bank account to a sub-merchant: AddMerchantBankAccount.',
  legacy: 'POST /platforms/{platformId}/merchants/{merchantId}/bankAccounts',
  current: 'PATCH /merchants/{merchantId}',
  params: platformMerchant,
  body: z.object({
    bsb: z.string().regex(/^\d{3}-?\d{3}$/, 'expected a six-digit BSB'),
    accountNumber: z.string().regex(/^\d{4,10}$/, 'expected 4-10 digits'),
    accountName: z.string().min(1).max(140),
  }),
  request: { wrap: 'AddMerchantBankAccount' },
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
  readback: ({ params }) => `/platforms/${params.platformId}/merchants/${params.merchantId}`,
});

export const setPrimaryBankAccount = defineMapping({
  route: 'L25',
  tier: 2,
  description: 'Make a bank account primary: the path bankAccountId goes into SetMerchantPrimaryBankAccount.',
  legacy: 'PUT /platforms/{platformId}/merchants/{merchantId}/bankAccounts/{bankAccountId}/primary',
  current: 'PATCH /merchants/{merchantId}',
  params: { ...platformMerchant, bankAccountId: toBody('bankAccountId', 'bankAccount') },
  request: { wrap: 'SetMerchantPrimaryBankAccount' },
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
  readback: ({ params }) => `/platforms/${params.platformId}/merchants/${params.merchantId}`,
});

export const updatePerson = defineMapping({
  route: 'L32',
  tier: 2,
  description: "Update a sub-merchant's person (legacy reference: UpdatePlatformMerchantPerson): ReplaceBeneficialOwner on the person with Merchant-Id; firstName, lastName, dob, email and phone renamed, the rest as sent; the share the person holds is kept; answered {personId}.",
  legacy: 'POST /marketplaces/merchants/{merchantId}/person/{personId}',
  current: 'PATCH /beneficialowners/{beneficialOwnerId}',
  params: { merchantId: toHeader('Merchant-Id', 'merchant'), personId: toPath('beneficialOwnerId', 'beneficialOwner') },
  body: legacyPersonBody,
  request: {
    wrap: 'ReplaceBeneficialOwner',
    shape: { firstName: 'givenName', lastName: 'familyName', dob: 'dateOfBirth', email: 'emailAddress', phone: 'phoneNumber' },
  },
  response: { map: (owner: z.output<typeof beneficialOwnerResponse>) => ({ personId: owner.beneficialOwnerId }) },
  answers: ok(z.object({ personId: z.string().startsWith('bown_') })),
});
