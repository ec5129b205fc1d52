import type { FastifyInstance } from 'fastify';
import { customerActionRequest, customerQuery, upsertCustomerRequest } from '../../contract/current-requests.js';
import { requireCapability } from '../access.js';
import { parseWith, pathId } from '../http.js';
import { queryCustomers, signInCustomer, signInDelegateByReference, upsertCustomer } from '../ops/customers.js';
import { kycCustomer } from '../ops/business.js';
import type { Store } from '../store.js';
import { authorise } from './context.js';
import { customerListItem } from './render.js';

export function registerCustomers(app: FastifyInstance, store: Store): void {
  app.post('/customers', async (req) => {
    const actor = await authorise(store, req, 'customer:manage');
    const body = parseWith(upsertCustomerRequest, req.body);
    if ('SignInDelegateByReferenceId' in body) {
      requireCapability(actor.principal, 'customer:signin');
      return { customToken: signInDelegateByReference(store, actor, body.SignInDelegateByReferenceId.referenceCustomerId) };
    }
    const customer =
      'UpsertConsumerCustomer' in body
        ? upsertCustomer(store, actor, 'consumer', body.UpsertConsumerCustomer)
        : upsertCustomer(store, actor, 'organisation', body.UpsertOrganisationCustomer);
    return { customerId: customer.customerId };
  });

  // Customer actions: sign-in (a checkout auth token for the customer, valid one hour) and KYC
  app.patch('/customers/:customerId', async (req) => {
    // the action named decides what the credential must be allowed (sign-in issues a credential)
    const kyc = typeof req.body === 'object' && req.body !== null && 'KycCustomer' in req.body;
    const actor = await authorise(store, req, kyc ? 'customer:kyc' : 'customer:signin');
    const customerId = pathId('customer', req, 'customerId');
    const body = parseWith(customerActionRequest, req.body);
    if ('KycCustomer' in body) {
      const c = kycCustomer(store, actor, customerId, body.KycCustomer);
      return { customerId: c.customerId, kycStatus: c.kycStatus, kycCheckedAt: c.kycCheckedAt };
    }
    return { customToken: signInCustomer(store, actor, customerId, 'SignInConsumer' in body ? 'consumer' : 'organisation') };
  });

  app.get('/customers', async (req) => {
    const actor = await authorise(store, req, 'customer:manage');
    const result = queryCustomers(store, actor, parseWith(customerQuery, req.query, 'query'));
    return { items: result.items.map(customerListItem), nextCursor: result.nextCursor };
  });
}
