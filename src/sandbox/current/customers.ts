import type { FastifyInstance } from 'fastify';
import {
  customerActionRequest,
  customerQuery,
  signInRequest,
  upsertCustomerRequest,
} from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
import {
  customerOfDelegate,
  delegateOf,
  queryCustomers,
  signInCustomer,
  signInDelegateByReference,
  upsertCustomer,
} from '../ops/customers.js';
import { kycCustomer } from '../ops/business.js';
import type { Store } from '../store.js';
import { PaybridgeError } from '../../errors.js';
import type { Customer } from '../model.js';
import { authorise, authoriseExcept } from './context.js';
import { customerListItem } from './render.js';

export function registerCustomers(app: FastifyInstance, store: Store): void {
  app.post('/customers', async (req) => {
    const actor = await authorise(store, req, 'customer:manage');
    const body = parseWith(upsertCustomerRequest, req.body);
    if ('RegisterPluginConsumerCustomer' in body) {
      // the official plugin's customer: the same for the same reference, or the same e-mail without one (as L28)
      const customer = upsertCustomer(store, actor, 'consumer', body.RegisterPluginConsumerCustomer, 'legacy');
      return { customerId: customer.customerId };
    }
    let customer;
    if ('UpsertConsumerCustomer' in body) {
      // isVerified and metadata are taken and not kept: the sandbox verifies no one
      const { isVerified: _verified, metadata: _metadata, ...fields } = body.UpsertConsumerCustomer;
      customer = upsertCustomer(store, actor, 'consumer', fields, 'current');
    } else customer = upsertCustomer(store, actor, 'organisation', body.UpsertOrganisationCustomer, 'current');
    return { customerId: customer.customerId, merchantId: customer.merchantId };
  });

  // KYC Customer (reference: POST /customers/kyc, the customer in the body or Customer-Id)
  app.post('/customers/kyc', async (req) => {
    const actor = await authorise(store, req, 'customer:kyc');
    const { KycCustomer: input } = parseWith(customerActionRequest, req.body);
    const { customerId = actor.customerId, ...fields } = input;
    if (!customerId)
      throw new PaybridgeError('invalid_request', 'KycCustomer.customerId: required (or the Customer-Id header)');
    return kycAnswer(kycCustomer(store, actor, customerId, fields));
  });

  // the earlier path, kept as an alias: the customer on the path
  app.patch('/customers/:customerId', async (req) => {
    const actor = await authorise(store, req, 'customer:kyc');
    const customerId = pathId('customer', req, 'customerId');
    const {
      KycCustomer: { customerId: named, ...fields },
    } = parseWith(customerActionRequest, req.body);
    if (named !== undefined && named !== customerId)
      throw new PaybridgeError('invalid_request', 'KycCustomer.customerId: differs from the customer on the path');
    return kycAnswer(kycCustomer(store, actor, customerId, fields));
  });

  // Sign-in (reference: POST /auth/signin): a checkout auth token for the customer, valid one hour
  app.post('/auth/signin', async (req) => {
    const actor = await authorise(store, req, 'customer:signin');
    const body = parseWith(signInRequest, req.body);
    if ('SignInConsumer' in body) {
      const { customerId } = body.SignInConsumer;
      return { customerId, customToken: signInCustomer(store, actor, customerId, 'consumer') };
    }
    if ('SignInDelegate' in body) {
      const { customerDelegateId } = body.SignInDelegate;
      const customerId = customerOfDelegate(customerDelegateId);
      return { customerId, customerDelegateId, customToken: signInCustomer(store, actor, customerId, 'organisation') };
    }
    const signedIn = signInDelegateByReference(store, actor, body.SignInDelegateByReferenceId.referenceCustomerId);
    return {
      customerId: signedIn.customerId,
      customerDelegateId: delegateOf(signedIn.customerId),
      customToken: signedIn.customToken,
    };
  });

  app.get('/customers', async (req) => {
    // Query Customers' security list (reference) has no merchant secret key
    const actor = await authoriseExcept(store, req, 'customer:manage', ['secretKey'], 'Query Customers');
    const result = queryCustomers(store, actor, parseWith(customerQuery, req.query, 'query'));
    return result.items.map(customerListItem);
  });
}

const kycAnswer = (c: Customer) => ({ customerId: c.customerId, kycStatus: c.kycStatus, kycCheckedAt: c.kycCheckedAt });
