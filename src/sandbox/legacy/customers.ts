import type { FastifyInstance } from 'fastify';
import { createCardSource } from '../ops/cards.js';
import { queryCustomers, signInCustomer, upsertCustomer } from '../ops/customers.js';
import { DEFAULT_PAY_PLAN_VARIANT, payPlanVariant } from '../../contract/current-requests.js';
import { legacyVariantName } from '../../contract/zod-helpers.js';
import { payCardIdOf } from '../../contract/ids.js';
import { parseWith } from '../http.js';
import { maxLoan } from '../ops/payplans.js';
import { createSourceToken, deleteSource, getSource, listSources } from '../ops/sources.js';
import { PaybridgeError } from '../../errors.js';
import type { Store } from '../store.js';
import { legacyCustomer, legacyRemovedCard, legacySource } from './render.js';
import { legacyRoute } from './route.js';
import {
  consumerBody,
  customerQuery,
  eligibilityBody,
  organisationBody,
  pluginCustomerBody,
  sandboxCardSourceBody,
  savedCardBody,
  signInBody,
} from './schemas.js';

/** The upsert answer of the earlier generation: a bare JSON string, the customer id (observed quirk). */
const bareString = (id: string) => JSON.stringify(id);

/** Customers, saved payment sources and pay plan eligibility: L13-L16, L18-L20. */
export function registerLegacyCustomers(app: FastifyInstance, store: Store): void {
  // L13
  app.post(
    '/customers/consumer',
    legacyRoute(store, { capability: 'customer:manage', body: consumerBody }, (c) => {
      const b = c.body;
      const customer = upsertCustomer(store, c.actor, 'consumer', {
        referenceCustomerId: b.internalCustomerId,
        emailAddress: (b.emailAddress ?? b.email)!,
        phoneNumber: b.phoneNumber ?? b.phoneno,
        givenName: b.givenName ?? b.firstName,
        middleName: b.middleName,
        familyName: b.familyName ?? b.lastName,
        address: b.address,
      });
      return c.reply.type('application/json').send(bareString(customer.customerId));
    }),
  );
  // L18
  app.post(
    '/customers/organisation',
    legacyRoute(store, { capability: 'customer:manage', body: organisationBody }, (c) => {
      const b = c.body;
      const customer = upsertCustomer(store, c.actor, 'organisation', {
        referenceCustomerId: b.internalCustomerId,
        businessName: (b.organisationName ?? b.businessName)!,
        emailAddress: (b.emailAddress ?? b.email)!,
        phoneNumber: b.phoneno,
        abn: b.taxId ?? b.abn,
      });
      return c.reply.type('application/json').send(bareString(customer.customerId));
    }),
  );
  // L28: the shop plugins' customer; answered {customerId} (an object, unlike L13)
  app.post(
    '/customers/plugin',
    legacyRoute(store, { capability: 'customer:manage', body: pluginCustomerBody }, (c) => {
      const b = c.body;
      const customer = upsertCustomer(store, c.actor, 'consumer', {
        referenceCustomerId: b.internalCustomerId,
        emailAddress: b.emailAddress,
        phoneNumber: b.phoneNumber,
        givenName: b.givenName,
        familyName: b.familyName,
      });
      return { customerId: customer.customerId };
    }),
  );
  // L29: a checkout auth token for the customer
  app.post(
    '/authn/tenants/accounts:signinCustomerWithCustomerId',
    legacyRoute(store, { capability: 'customer:signin', body: signInBody }, (c) => ({
      customToken: signInCustomer(store, c.actor, c.body.customerId, 'consumer'),
    })),
  );
  // L14
  app.get(
    '/merchants/:merchantId/customers',
    legacyRoute(
      store,
      { capability: 'customer:manage', ids: { merchantId: 'merchant' }, query: customerQuery },
      (c) => {
        const result = queryCustomers(store, c.actor, {
          emailAddress: c.query.email,
          merchantId: [c.params.merchantId!],
        });
        return { customers: result.items.map(legacyCustomer) };
      },
    ),
  );
  // L15
  app.get(
    '/merchants/:merchantId/customers/:customerId/payments/sources',
    legacyRoute(
      store,
      {
        capability: 'source:manage',
        ids: { merchantId: 'merchant', customerId: 'customer' },
        claim: (p) => ({ merchantId: p.merchantId }),
      },
      (c) => ({
        paymentSources: listSources(store, c.actor, { customerId: [c.params.customerId!] }).items.map(legacySource),
      }),
    ),
  );
  // L16
  app.delete(
    '/merchants/:merchantId/payments/sources/card/:customerId/:cardPaymentSourceId',
    legacyRoute(
      store,
      {
        capability: 'source:manage',
        ids: { merchantId: 'merchant', customerId: 'customer', cardPaymentSourceId: 'paymentSource' },
        claim: (p) => ({ merchantId: p.merchantId, customerId: p.customerId }),
      },
      (c) => {
        const id = c.params.cardPaymentSourceId!;
        if (getSource(store, c.actor, id).type !== 'card')
          throw new PaybridgeError('not_found', `cardPaymentSourceId: ${id} is not a saved card`);
        // HTTP 200 with the removed card (legacy reference)
        return legacyRemovedCard(deleteSource(store, c.actor, id));
      },
    ),
  );
  // L19
  app.post(
    '/payments/saved-card',
    legacyRoute(
      store,
      {
        capability: 'source-token:create',
        body: savedCardBody,
        claim: (_p, b) => (b.customerId ? { customerId: b.customerId } : {}),
      },
      (c) => {
        // a tokenised CVC is taken and not kept: the sandbox's saved cards need none
        const { cardPaymentSourceId, paymentAmount } = c.body;
        const token = createSourceToken(store, c.actor, {
          paymentSourceId: cardPaymentSourceId,
          amount: { minorCurrencyUnits: paymentAmount.amount, currency: paymentAmount.currency },
        });
        // HTTP 201 (the WooCommerce plugin accepts nothing else) with the reference's fields
        return c.reply
          .code(201)
          .send({ paymentTokenId: token.paymentTokenId, payCardId: payCardIdOf(token.paymentTokenId) });
      },
    ),
  );
  // L20
  app.post(
    '/payments/plan/eligibility-max',
    legacyRoute(
      store,
      { capability: 'payplan:max', body: eligibilityBody, claim: (_p, b) => ({ customerId: b.customerId }) },
      (c) => {
        // PayPlan_Fortnight_25_25_25_25 (or {PayPlan_...: {}}): the current name lower-cased; unset, the default.
        // An unknown one is refused as the current face refuses it.
        const named =
          c.body.payPlanVariant === undefined
            ? DEFAULT_PAY_PLAN_VARIANT
            : legacyVariantName(c.body.payPlanVariant).toLowerCase();
        const result = maxLoan(store, c.actor, parseWith(payPlanVariant, named, 'payPlanVariant'));
        return {
          maxLoanAmount: result.amount.minorCurrencyUnits,
          currency: result.amount.currency,
          summary: result.summary,
        };
      },
    ),
  );
  // sandbox instrument: a saved card for a customer
  app.post(
    '/sandbox/card-sources',
    legacyRoute(
      store,
      { capability: 'source:manage', body: sandboxCardSourceBody, claim: (_p, b) => ({ customerId: b.customerId }) },
      (c) => legacySource(createCardSource(store, c.actor, { cardNumber: c.body.cardNumber })),
    ),
  );
}
