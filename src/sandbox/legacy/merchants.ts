import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  legacyBankAccountBody,
  legacyBusinessProfileBody,
  legacyOnboardingBody,
} from '../../contract/legacy-merchants.js';
import type { Actor } from '../access.js';
import { legacyPersonBody } from '../../contract/legacy-person.js';
import { replaceBeneficialOwner } from '../ops/business.js';
import {
  addBankAccount,
  createMerchant,
  getMerchant,
  setPrimaryBankAccount,
  updateBusinessProfile,
} from '../ops/merchants.js';
import type { Store } from '../store.js';
import { legacyMerchant } from './render.js';
import { legacyRoute } from './route.js';

const platformMerchant = { platformId: 'marketplace', merchantId: 'merchant' } as const;
const platformClaim = (p: Record<string, string>) => ({ marketplaceId: p.platformId });

/** Marketplace onboarding and sub-merchant management: L21-L25, L32. */
export function registerLegacyMerchants(app: FastifyInstance, store: Store): void {
  // L21 (reference body)
  app.post(
    '/marketplaces/onboarding',
    legacyRoute(store, { capability: 'merchant:create', body: legacyOnboardingBody }, (c) => {
      const { contactEmail, businessName, slug, taxCountry, tradingCountry } = c.body;
      return {
        merchantId: createMerchant(store, c.actor, {
          slug,
          businessProfile: { businessName },
          contactEmailAddress: contactEmail,
          taxCountry,
          tradingCountry,
        }).merchantId,
      };
    }),
  );
  // L22
  app.get(
    '/platforms/:platformId/merchants/:merchantId',
    legacyRoute(store, { capability: 'merchant:read', ids: platformMerchant, claim: platformClaim }, (c) =>
      legacyMerchant(getMerchant(store, c.actor, c.params.merchantId!)),
    ),
  );
  // L23 (reference body), at the decided path and at the /marketplaces form of its reference siblings
  const updateProfile = (c: {
    actor: Actor;
    params: Record<string, string>;
    body: z.output<typeof legacyBusinessProfileBody>;
  }) => legacyMerchant(updateBusinessProfile(store, c.actor, c.params.merchantId!, c.body));
  app.put(
    '/platforms/:platformId/merchants/:merchantId/businessProfile',
    legacyRoute(
      store,
      { capability: 'merchant:update', ids: platformMerchant, body: legacyBusinessProfileBody, claim: platformClaim },
      updateProfile,
    ),
  );
  for (const method of ['PUT', 'POST'] as const)
    app.route({
      method,
      url: '/marketplaces/merchants/:merchantId',
      handler: legacyRoute(
        store,
        { capability: 'merchant:update', ids: { merchantId: 'merchant' }, body: legacyBusinessProfileBody },
        updateProfile,
      ),
    });
  // L24 (reference): the account becomes primary unless setAsPrimary is false; answered with its id
  app.post(
    '/marketplaces/merchants/:merchantId/accounts',
    legacyRoute(
      store,
      { capability: 'merchant:update', ids: { merchantId: 'merchant' }, body: legacyBankAccountBody },
      (c) => {
        const { routingNumber, country: _au, referenceAccountId: _ref, setAsPrimary, ...account } = c.body;
        const merchant = addBankAccount(store, c.actor, c.params.merchantId!, {
          ...account,
          bsb: routingNumber,
          setAsPrimary: setAsPrimary ?? true,
        });
        return { accountId: merchant.bankAccounts.at(-1)!.bankAccountId };
      },
    ),
  );
  // L25
  app.put(
    '/platforms/:platformId/merchants/:merchantId/bankAccounts/:bankAccountId/primary',
    legacyRoute(
      store,
      {
        capability: 'merchant:update',
        ids: { ...platformMerchant, bankAccountId: 'bankAccount' },
        claim: platformClaim,
      },
      (c) => legacyMerchant(setPrimaryBankAccount(store, c.actor, c.params.merchantId!, c.params.bankAccountId!)),
    ),
  );
  // L32 (legacy reference): a sub-merchant's person, replaced; the share it holds is kept
  app.post(
    '/marketplaces/merchants/:merchantId/person/:personId',
    legacyRoute(
      store,
      {
        capability: 'owner:manage',
        ids: { merchantId: 'merchant', personId: 'beneficialOwner' },
        body: legacyPersonBody,
        claim: (p) => ({ merchantId: p.merchantId }),
      },
      (c) => {
        const { firstName, lastName, dob, email, phone, ...rest } = c.body;
        const person = {
          ...rest,
          givenName: firstName,
          familyName: lastName,
          dateOfBirth: dob,
          emailAddress: email,
          phoneNumber: phone,
        };
        return { personId: replaceBeneficialOwner(store, c.actor, c.params.personId!, person).beneficialOwnerId };
      },
    ),
  );
}
