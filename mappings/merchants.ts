import { z } from 'zod';
import { beneficialOwnerResponse, merchantResponse as currentMerchant } from '../src/contract/current-responses.js';
import {
  legacyBankAccountBody,
  legacyBusinessProfileBody,
  legacyOnboardingBody,
} from '../src/contract/legacy-merchants.js';
import { legacyPersonBody } from '../src/contract/legacy-person.js';
import {
  checkWrite,
  defineMapping,
  readAnswer,
  readFirst,
  stringAt,
  toBody,
  toHeader,
  toPath,
  type WriteOutcome,
} from '../src/translate/define.js';
import { closed, into, moved } from '../src/translate/shape.js';
import { LEGACY_MERCHANT } from './shapes.js';
import { MERCHANT_ANSWER, ok } from './answers.js';

const platformMerchant = {
  platformId: toHeader('Marketplace-Id', 'marketplace'),
  merchantId: toPath('merchantId', 'merchant'),
};
/** Every merchant answer is wrapped by the merchant's kind (reference); the sandbox's merchants are service providers. */
const merchantResponse = { at: 'ServiceProviderMerchant', shape: LEGACY_MERCHANT } as const;
type CurrentMerchant = z.output<typeof currentMerchant>;

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

/** A BSB's digits (with or without its dash, D-MER-4). */
const digits = (bsb: unknown) => (typeof bsb === 'string' ? bsb.replace('-', '') : bsb);

export const onboardMerchant = defineMapping({
  route: 'L21',
  tier: 2,
  description:
    'Onboard a sub-merchant with the platform API key: CreateServiceProviderSubmerchant (businessName into businessProfile, contactEmail -> contactEmailAddress); dashboardReferrer dropped and reported; answered {merchantId}.',
  legacy: 'POST /marketplaces/onboarding',
  current: 'POST /merchants',
  body: legacyOnboardingBody.omit({ dashboardReferrer: true }),
  request: {
    wrap: 'CreateServiceProviderSubmerchant',
    shape: { businessName: into('businessProfile.businessName'), contactEmail: 'contactEmailAddress' },
  },
  response: { at: 'ServiceProviderMerchant', shape: closed({ merchantId: 'merchantId' }) },
  answers: ok(z.object({ merchantId: z.string().startsWith('mcht_') })),
  writeCheck: checkWrite({
    ...merchantState(({ answer }) => stringAt(answer, 'merchantId')),
    // the merchant with its profile's contact and countries where the translated create names them
    effect: {
      at: ({ ServiceProviderMerchant: m }) => ({
        ...m,
        contactEmailAddress: m.businessProfile.contactEmailAddress,
        taxCountry: m.businessProfile.taxCountry,
        tradingCountry: m.businessProfile.tradingCountry,
      }),
    },
  }),
});

export const getMerchant = defineMapping({
  route: 'L22',
  tier: 2,
  description:
    'Read a sub-merchant: GET /merchants/{merchantId} with Marketplace-Id; the merchant inside its kind wrapper, marketplaceId answered as platformId, the profile flat.',
  legacy: 'GET /platforms/{platformId}/merchants/{merchantId}',
  current: 'GET /merchants/{merchantId}',
  params: platformMerchant,
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
});

export const updateBusinessProfile = defineMapping({
  route: 'L23',
  tier: 2,
  description:
    "Update a sub-merchant's business profile (legacy reference body: timeZone, businessName, businessType, companyType, website, supportSite, industry): UpdateMerchantBusinessProfile with the same names. Also taken at the /marketplaces/merchants/{merchantId} form of the reference's sibling routes.",
  legacy: 'PUT /platforms/{platformId}/merchants/{merchantId}/businessProfile',
  alsoAt: ['PUT /marketplaces/merchants/{merchantId}', 'POST /marketplaces/merchants/{merchantId}'],
  current: 'PATCH /merchants/{merchantId}',
  params: platformMerchant,
  body: legacyBusinessProfileBody,
  request: { wrap: 'UpdateMerchantBusinessProfile' },
  response: merchantResponse,
  answers: ok(MERCHANT_ANSWER),
  readback: ({ params }) =>
    params.platformId ? `/platforms/${params.platformId}/merchants/${params.merchantId}` : undefined,
  writeCheck: checkWrite({
    ...merchantState(pathMerchant),
    effect: { at: (state) => state.ServiceProviderMerchant.businessProfile },
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
  description:
    'Add a payout bank account to a sub-merchant (legacy reference): AddMerchantBankAccount {accountName, bankName, identifier: {AuBankAccountIdentifier: {bsb: routingNumber, accountNumber}}, currency, setAsPrimary} in one call, setAsPrimary true unless the client sent false; an account outside Australia is refused; referenceAccountId dropped and reported; answered {accountId}, the account new against the merchant read first.',
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
      return {
        status: 200,
        body: state,
        before: {
          ServiceProviderMerchant: { ...m, bankAccounts: m.bankAccounts.filter((a) => a.bankAccountId !== added) },
        },
      };
    },
    effect: {
      // the account the client was answered, under the names AddMerchantBankAccount gives its fields
      at: ({ ServiceProviderMerchant: m }, { answer }) => {
        const account = m.bankAccounts.find((a) => a.bankAccountId === stringAt(answer, 'accountId'));
        return account && { ...account, setAsPrimary: m.primaryBankAccountId === account.bankAccountId };
      },
      fields: {
        // a BSB is one number with or without its dash (D-MER-4)
        'identifier.AuBankAccountIdentifier.bsb': ({ asked, state, outcome }) => {
          const account = state?.ServiceProviderMerchant.bankAccounts.find(
            (a) => a.bankAccountId === stringAt(outcome.answer, 'accountId'),
          );
          return state && [digits(asked), digits(account?.identifier.AuBankAccountIdentifier.bsb)];
        },
        // what the current action does: primary as setAsPrimary says, or, left out, only a merchant's first account
        setAsPrimary: ({ asked, state, outcome }) => {
          if (!state) return undefined;
          const m = state.ServiceProviderMerchant;
          const id = stringAt(outcome.answer, 'accountId');
          return [asked ?? m.bankAccounts[0]?.bankAccountId === id, m.primaryBankAccountId === id];
        },
      },
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
    effect: { at: (state) => ({ bankAccountId: state.ServiceProviderMerchant.primaryBankAccountId }) },
  }),
});

export const updatePerson = defineMapping({
  route: 'L32',
  tier: 2,
  description:
    "Update a sub-merchant's person (legacy reference: UpdatePlatformMerchantPerson): ReplaceBeneficialOwner on the person with Merchant-Id; firstName, lastName, dob, email and phone renamed, the rest as sent; the share the person holds is kept; answered {personId}.",
  legacy: 'POST /marketplaces/merchants/{merchantId}/person/{personId}',
  current: 'PATCH /beneficialowners/{beneficialOwnerId}',
  params: { merchantId: toHeader('Merchant-Id', 'merchant'), personId: toPath('beneficialOwnerId', 'beneficialOwner') },
  body: legacyPersonBody,
  request: {
    wrap: 'ReplaceBeneficialOwner',
    shape: {
      firstName: 'givenName',
      lastName: 'familyName',
      dob: 'dateOfBirth',
      email: 'emailAddress',
      phone: 'phoneNumber',
    },
  },
  response: readAnswer([beneficialOwnerResponse], (owner) => ({ personId: owner.beneficialOwnerId })),
  answers: ok(z.object({ personId: z.string().startsWith('bown_') })),
  writeCheck: checkWrite({
    state: ({ params }) => `/beneficialowners/${params.personId}`,
    reads: beneficialOwnerResponse,
    answer: (state) => ({ status: 200, body: state }),
    effect: { at: (state) => state },
  }),
});
