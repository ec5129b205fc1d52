import type { FastifyInstance } from 'fastify';
import { customerQuery, upsertCustomerRequest } from '../../contract/current-requests.js';
import { parseWith } from '../http.js';
import { queryCustomers, upsertCustomer } from '../ops/customers.js';
import type { Store } from '../store.js';
import { authorise } from './context.js';
import { customerListItem } from './render.js';

export function registerCustomers(app: FastifyInstance, store: Store): void {
  app.post('/customers', async (req) => {
    const actor = authorise(store, req, 'customer:manage');
    const body = parseWith(upsertCustomerRequest, req.body);
    const customer =
      'UpsertConsumerCustomer' in body
        ? upsertCustomer(store, actor, 'consumer', body.UpsertConsumerCustomer)
        : upsertCustomer(store, actor, 'organisation', body.UpsertOrganisationCustomer);
    return { customerId: customer.customerId };
  });

  app.get('/customers', async (req) => {
    const actor = authorise(store, req, 'customer:manage');
    const result = queryCustomers(store, actor, parseWith(customerQuery, req.query, 'query'));
    return { items: result.items.map(customerListItem), nextCursor: result.nextCursor };
  });
}
