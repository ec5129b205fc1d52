import { z } from 'zod';
import { beneficialOwnerResponse, merchantResponse as currentMerchant } from '../src/contract/current-responses.js';
import { legacyBankAccountBody, legacyBusinessProfileBody, legacyOnboardingBody } from '../src/contract/legacy-merchants.js';
import { legacyPersonBody } from '../src/contract/legacy-person.js';
import { checkWrite, defineMapping, readAnswer, readFirst, stringAt, toBody, toHeader, toPath, unlike, type WriteOutcome } from '../src/translate/define.js';
import { closed, into, moved } from '../src/translate/shape.js';
import { LEGACY_MERCHANT } from './shapes.js';
import { MERCHANT_ANSWER, ok } from './answers.js';

const platformMerchant = { platformId: toHeader('Marketplace-Id', 'marketplace'), merchantId: toPath('merchantId', 'merchant') };
/** Every merchant answer is wrapped by the merchant's kind (reference); the sandbox's merchants are service providers. */
const merchantResponse = { at: 'ServiceProviderMerchant', shape: LEGACY_MERCHANT } as const;
type CurrentMerchant = z.output<typeof currentMerchant>;

type Profile = CurrentMerchant['ServiceProviderMerchant']['businessProfile'];

/** The merchant a write acted on, read through the current API (its answer is the same wrapper the write answers). */
const merchantState = (merchantIdOf: (outcome: WriteOutcome) => string | undefined) => ({
  state: (outcome: WriteOutcome) => {
    const id = merchantIdOf(outcome);
    return id ? `/merchants/${id}` : undefined;
  },
  reads: currentMerchant,
  answer: (state: CurrentMerchant | undefined) => ({ status: 200, body: state }),
});
const pathMerchant = ({ params }: WriteOutcome) => params.merchantId;

/** The profile fields the translated call asks for, against the merchant's profile. */
const profileAsAsked = (asked: Partial<Record<keyof Profile, unknown>>, profile: Profile) =>
  unlike(Object.fromEntries(Object.entries(asked).map(([field, value]) => [field, [value, profile[field as keyof Profile]]])));

export const onboardMerchant = defineMapping({
  route: 'L21',
  tier: 2,
  description: 'Onboard a sub-merchant with the platform API key: CreateServiceProviderSubmerchant (businessName into businessProfile, contactEmail -> contactEmailAddress); dashboardReferrer dropped and reported; answered {merchantId}.',
  legacy: 'POST /marketplaces/onboarding',
  current: 'POST /merchants',
  body: legacyOnboardingBody.omit({ dashboardReferrer: true }),
  request: { wrap: 'CreateServiceProviderSubmerchant', shape: { businessName: into('businessProfile.businessName'), contactEmail: 'contactEmailAddress' } },
  response: { at: 'ServiceProviderMerchant', shape: closed({ merchantId: 'merchantId' }) },
  answers: ok(z.object({ merchantId: z.string().startsWith('mcht_') })),
  writeCheck: checkWrite({
    ...merchantState(({ answer }) => stringAt(answer, 'merchantId')),
    // the slug, the name and the contact the translated create asks for
    effect: (asked: { slug?: string; businessProfile?: { businessName?: string }; contactEmailAddress?: string; taxCountry?: string }, state) => {
      const m = state.ServiceProviderMerchant;
      const { slug: _slug, businessProfile, ...contact } = asked;
      return [...unlike({ businessName: [businessProfile?.businessName, m.businessProfile.businessName] }), ...profileAsAsked(contact, m.businessProfile)];
    },
  }),
});

export const getMerchant = defineMapping({
  route: 'L22',
  tier: 2,
  description: 'Read a sub-merchant: GET /merchants/{merchantId} with Marketplace-Id; the merchant inside its kind wrapper, marketplaceId answered as platformId, the profile flat.',
  legacy: 'GET /platforms/{platformId}/merchants/{merchantId}',
  current: 'GET /merchants/{merchantId}',
  params: platformMerchant,
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
});

export const updateBusinessProfile = defineMapping({
  route: 'L23',
  tier: 2,
  description: "Update a sub-merchant's business profile (legacy reference body: timeZone, businessName, businessType, companyType, website, supportSite, industry): UpdateMerchantBusinessProfile with the same names. Also taken at the /marketplaces/merchants/{merchantId} form of the reference's sibling routes.",
  legacy: 'PUT /platforms/{platformId}/merchants/{merchantId}/businessProfile',
  alsoAt: ['PUT /marketplaces/merchants/{merchantId}', 'POST /marketplaces/merchants/{merchantId}'],
  current: 'PATCH /merchants/{merchantId}',
  params: platformMerchant,
  body: legacyBusinessProfileBody,
  request: { wrap: 'UpdateMerchantBusinessProfile' },
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
  readback: ({ params }) => (params.platformId ? `/platforms/${params.platformId}/merchants/${params.merchantId}` : undefined),
  writeCheck: checkWrite({
    ...merchantState(pathMerchant),
    effect: (asked: Partial<Record<keyof Profile, unknown>>, state) => profileAsAsked(asked, state.ServiceProviderMerchant.businessProfile),
  }),
});

/** L24's answer: the id of the account the call added, the one the read before did not list. */
const addedAccount = readAnswer([currentMerchant], (after, _legacyBody, before: CurrentMerchant) => {
  const known = new Set(before.ServiceProviderMerchant.bankAccounts.map((a) => a.bankAccountId));
  const added = after.ServiceProviderMerchant.bankAccounts.find((a) => !known.has(a.bankAccountId));
  if (!added) throw new Error('no bank account is new in the answer');
  return { accountId: added.bankAccountId };
});

export const addBankAccount = defineMapping({
  route: 'L24',
  tier: 2,
  description: 'Add a payout bank account to a sub-merchant (legacy reference): AddMerchantBankAccount {accountName, bankName, identifier: {AuBankAccountIdentifier: {bsb: routingNumber, accountNumber}}, currency, setAsPrimary} in one call, setAsPrimary true unless the client sent false; an account outside Australia is refused; referenceAccountId dropped and reported; answered {accountId}, the account new against the merchant read first.',
  legacy: 'POST /marketplaces/merchants/{merchantId}/accounts',
  current: 'PATCH /merchants/{merchantId}',
  params: { merchantId: toPath('merchantId', 'merchant') },
  body: legacyBankAccountBody.omit({ referenceAccountId: true }),
  request: {
    wrap: 'AddMerchantBankAccount',
    shape: {
      routingNumber: into('identifier.AuBankAccountIdentifier.bsb'),
      accountNumber: into('identifier.AuBankAccountIdentifier.accountNumber'),
      // the schema takes AU alone: the identifier's form says the country
      country: moved(),
    },
    add: { setAsPrimary: true },
  },
  // the read and the call one at a time per merchant, so the new account is told apart
  preflight: readFirst('GET /merchants/{merchantId}', currentMerchant, () => undefined, { exclusive: true }),
  response: addedAccount,
  answers: ok(z.object({ accountId: z.string().startsWith('bank_') })),
  // the account the client was answered holds what the translated call asks, primary as asked; the answer is told
  // from the merchant as it was before that account (the read the gateway makes first)
  writeCheck: checkWrite({
    ...merchantState(pathMerchant),
    answer: (state, { answer }) => {
      if (!state) return { status: 200, body: state };
      const added = stringAt(answer, 'accountId');
      const m = state.ServiceProviderMerchant;
      return { status: 200, body: state, before: { ServiceProviderMerchant: { ...m, bankAccounts: m.bankAccounts.filter((a) => a.bankAccountId !== added) } } };
    },
    effect: (asked: { accountName?: string; bankName?: string; identifier?: { AuBankAccountIdentifier?: { bsb?: string; accountNumber?: string } }; currency?: string; setAsPrimary?: boolean }, state, { answer }) => {
      const m = state.ServiceProviderMerchant;
      const id = stringAt(answer, 'accountId');
      const account = m.bankAccounts.find((a) => a.bankAccountId === id);
      // a BSB is one number with or without its dash (D-MER-4)
      const digits = (bsb: string | undefined) => bsb?.replace('-', '');
      const identifier = account?.identifier.AuBankAccountIdentifier;
      return unlike({
        accountName: [asked.accountName, account?.accountName], bankName: [asked.bankName, account?.bankName],
        bsb: [digits(asked.identifier?.AuBankAccountIdentifier?.bsb), digits(identifier?.bsb)],
        accountNumber: [asked.identifier?.AuBankAccountIdentifier?.accountNumber, identifier?.accountNumber],
        // what the current action does: primary as setAsPrimary says, or, left out, only a merchant's first account
        currency: [asked.currency, account?.currency], primary: [asked.setAsPrimary ?? m.bankAccounts[0]?.bankAccountId === id, m.primaryBankAccountId === id],
      });
    },
  }),
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
  writeCheck: checkWrite({
    ...merchantState(pathMerchant),
    effect: (asked: { bankAccountId?: string }, state) => unlike({ primaryBankAccountId: [asked.bankAccountId, state.ServiceProviderMerchant.primaryBankAccountId] }),
  }),
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
  response: readAnswer([beneficialOwnerResponse], (owner) => ({ personId: owner.beneficialOwnerId })),
  answers: ok(z.object({ personId: z.string().startsWith('bown_') })),
  writeCheck: checkWrite({
    state: ({ params }) => `/beneficialowners/${params.personId}`,
    reads: beneficialOwnerResponse,
    answer: (state) => ({ status: 200, body: state }),
    effect: (asked: Record<string, unknown>, state) => {
      const person = state as unknown as Record<string, unknown>;
      return unlike(Object.fromEntries(Object.entries(asked).map(([field, value]) => [field, [value, person[field]]])));
    },
  }),
});
