import type { FastifyInstance } from 'fastify';
import { legacyPersonBody } from '../../contract/legacy-person.js';
import { replaceBeneficialOwner } from '../ops/business.js';
import { addBankAccount, createMerchant, getMerchant, setPrimaryBankAccount, updateBusinessProfile } from '../ops/merchants.js';
import type { Store } from '../store.js';
import { legacyMerchant } from './render.js';
import { legacyRoute } from './route.js';
import { bankAccountBody, businessProfileBody, onboardingBody } from './schemas.js';

const platformMerchant = { platformId: 'marketplace', merchantId: 'merchant' } as const;
const platformClaim = (p: Record<string, string>) => ({ marketplaceId: p.platformId });

/** Marketplace onboarding and sub-merchant management: L21-L25, L32. */
export function registerLegacyMerchants(app: FastifyInstance, store: Store): void {
  // L21
  app.post(
    '/marketplaces/onboarding',
    legacyRoute(store, { capability: 'merchant:create', body: onboardingBody }, (c) => {
      const { contactEmail, ...rest } = c.body;
      return { merchantId: createMerchant(store, c.actor, { ...rest, contactEmailAddress: contactEmail }).merchantId };
    }),
  );
  // L22
  app.get(
    '/platforms/:platformId/merchants/:merchantId',
    legacyRoute(store, { capability: 'merchant:read', ids: platformMerchant, claim: platformClaim }, (c) =>
      legacyMerchant(getMerchant(store, c.actor, c.params.merchantId!)),
    ),
  );
  // L23
  app.put(
    '/platforms/:platformId/merchants/:merchantId/businessProfile',
    legacyRoute(
      store,
      { capability: 'merchant:update', ids: platformMerchant, body: businessProfileBody, claim: platformClaim },
      (c) => {
        const { contactEmail, ...rest } = c.body;
        return legacyMerchant(
          updateBusinessProfile(store, c.actor, c.params.merchantId!, { ...rest, contactEmailAddress: contactEmail }),
        );
      },
    ),
  );
  // L24
  app.post(
    '/platforms/:platformId/merchants/:merchantId/bankAccounts',
    legacyRoute(
      store,
      { capability: 'merchant:update', ids: platformMerchant, body: bankAccountBody, claim: platformClaim },
      (c) => legacyMerchant(addBankAccount(store, c.actor, c.params.merchantId!, c.body)),
    ),
  );
  // L25
  app.put(
    '/platforms/:platformId/merchants/:merchantId/bankAccounts/:bankAccountId/primary',
    legacyRoute(
      store,
      { capability: 'merchant:update', ids: { ...platformMerchant, bankAccountId: 'bankAccount' }, claim: platformClaim },
      (c) => legacyMerchant(setPrimaryBankAccount(store, c.actor, c.params.merchantId!, c.params.bankAccountId!)),
    ),
  );
  // L32 (legacy reference): a sub-merchant's person, replaced; the share it holds is kept
  app.post(
    '/marketplaces/merchants/:merchantId/person/:personId',
    legacyRoute(
      store,
      { capability: 'owner:manage', ids: { merchantId: 'merchant', personId: 'beneficialOwner' }, body: legacyPersonBody, claim: (p) => ({ merchantId: p.merchantId }) },
      (c) => {
        const { firstName, lastName, dob, email, phone, ...rest } = c.body;
        const person = { ...rest, givenName: firstName, familyName: lastName, dateOfBirth: dob, emailAddress: email, phoneNumber: phone };
        return { personId: replaceBeneficialOwner(store, c.actor, c.params.personId!, person).beneficialOwnerId };
      },
    ),
  );
}
