import { z } from 'zod';
import { defineMapping, toHeader, toPath, toQuery } from '../src/translate/define.js';
import { closed, computed, rename, type Obj } from '../src/translate/shape.js';
import { ok } from './answers.js';

const methodOf = (source: Obj): [string, Obj] => {
  const [[name, method]] = Object.entries(source.sourceMethod as Obj) as [[string, Obj]];
  return [name, method];
};

/** A current payment source in the legacy list shape: type and account hint from its sourceMethod. */
const LEGACY_SOURCE = closed({
  paymentSourceId: 'paymentSourceId',
  customerId: 'customerId',
  merchantId: 'merchantId',
  type: computed((s) => (methodOf(s)[0] === 'PayToMethodResp' ? 'payto' : 'card')),
  accountHint: computed((s) => {
    const method = methodOf(s)[1];
    return method.accountIdentifierHint ?? method.cardHint;
  }),
  createdAt: 'createdAt',
});

export const listSources = defineMapping({
  route: 'L15',
  description: "List a customer's saved payment sources: merchantId goes to Merchant-Id, customerId to the customerId filter; answered {paymentSources}.",
  legacy: 'GET /merchants/{merchantId}/customers/{customerId}/payments/sources',
  current: 'GET /sources',
  params: { merchantId: toHeader('Merchant-Id', 'merchant'), customerId: toQuery('customerId', 'customer') },
  response: { shape: closed({ paymentSources: rename('items', LEGACY_SOURCE) }) },
  answers: ok(z.object({ paymentSources: z.array(z.object({ paymentSourceId: z.string().startsWith('psrc_'), customerId: z.string(), merchantId: z.string(), type: z.enum(['card', 'payto']), accountHint: z.string(), createdAt: z.string() })) })),
});

export const deleteCardSource = defineMapping({
  route: 'L16',
  description: 'Delete a saved card: DELETE /sources/{sourceId} with Merchant-Id and Customer-Id from the path; answered 204.',
  legacy: 'DELETE /merchants/{merchantId}/payments/sources/card/{customerId}/{sourceId}',
  current: 'DELETE /sources/{sourceId}',
  params: {
    merchantId: toHeader('Merchant-Id', 'merchant'),
    customerId: toHeader('Customer-Id', 'customer'),
    sourceId: toPath('sourceId', 'paymentSource'),
  },
  response: { empty: true },
  answers: { 204: null },
  readback: ({ params }) => `/merchants/${params.merchantId}/customers/${params.customerId}/payments/sources`,
});
