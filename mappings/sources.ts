import { z } from 'zod';
import { savedSource } from '../src/contract/current-responses.js';
import {
  checkWrite,
  defineMapping,
  readAnswer,
  readFirst,
  stringAt,
  toHeader,
  toPath,
  toQuery,
} from '../src/translate/define.js';
import { PaybridgeError } from '../src/errors.js';
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
  description:
    "List a customer's saved payment sources: merchantId goes to Merchant-Id, customerId to the customerId filter; answered {paymentSources}.",
  legacy: 'GET /merchants/{merchantId}/customers/{customerId}/payments/sources',
  current: 'GET /sources',
  params: { merchantId: toHeader('Merchant-Id', 'merchant'), customerId: toQuery('customerId', 'customer') },
  response: { shape: closed({ paymentSources: rename('items', LEGACY_SOURCE) }) },
  // every page, only the customer's own sources (a filter is never trusted)
  paged: { filters: { customerId: 'customerId' } },
  answers: ok(
    z.object({
      paymentSources: z.array(
        z.object({
          paymentSourceId: z.string().startsWith('psrc_'),
          customerId: z.string(),
          merchantId: z.string(),
          type: z.enum(['card', 'payto']),
          accountHint: z.string(),
          createdAt: z.string(),
        }),
      ),
    }),
  ),
});

type Source = z.output<typeof savedSource>;

/** The card of a saved source, or undefined for another kind. */
const cardOf = (source: Source) =>
  'CardMethodResp' in source.sourceMethod ? source.sourceMethod.CardMethodResp : undefined;

/**
 * The removed card as the legacy reference answers it, from the source read just before the delete:
 * what the current source holds (its last four digits in the card hint), the rest null (legacy-api.md
 * section 4, L16).
 */
const removedCard = readAnswer([], (_deleted: unknown, _legacyBody, source: Source) => ({
  cardPaymentSourceId: source.paymentSourceId,
  customerId: source.customerId,
  customerDelegateUserId: source.customerDelegateId,
  brand: null,
  funding: null,
  last4: /(\d{4})$/.exec(cardOf(source)?.cardHint ?? '')?.[1] ?? null,
  cardBin: null,
  expMonth: null,
  expYear: null,
  country: null,
  isDeleted: true,
  createdAt: source.createdAt,
  updatedAt: source.updatedAt,
}));

export const deleteCardSource = defineMapping({
  route: 'L16',
  description:
    "Delete a saved card: the source is read (GET /sources/{sourceId}, Get Payment Source, which takes no merchant key: with a merchant key made with the operator's marketplace key scoped to the caller's own merchant; not a card: 404), then DELETE /sources/{sourceId}, both with Merchant-Id and Customer-Id from the path; answered 200 with the removed card (isDeleted: true), as the legacy reference answers.",
  legacy: 'DELETE /merchants/{merchantId}/payments/sources/card/{customerId}/{cardPaymentSourceId}',
  current: 'DELETE /sources/{sourceId}',
  params: {
    merchantId: toHeader('Merchant-Id', 'merchant'),
    customerId: toHeader('Customer-Id', 'customer'),
    cardPaymentSourceId: toPath('sourceId', 'paymentSource'),
  },
  preflight: readFirst('GET /sources/{sourceId}', savedSource, (source) => {
    if (!cardOf(source))
      throw new PaybridgeError('not_found', `cardPaymentSourceId: ${source.paymentSourceId} is not a saved card`);
  }),
  response: removedCard,
  // the source is gone from the current API; the answer is rebuilt from the card the client was answered
  writeCheck: checkWrite({
    state: ({ params }) => `/sources/${params.cardPaymentSourceId}`,
    reads: savedSource,
    removes: true,
    answer: (_state, { answer, params }) => ({
      status: 204,
      body: undefined,
      before: {
        paymentSourceId: stringAt(answer, 'cardPaymentSourceId') ?? params.cardPaymentSourceId,
        customerId: stringAt(answer, 'customerId') ?? params.customerId,
        merchantId: params.merchantId,
        customerDelegateId: stringAt(answer, 'customerDelegateUserId') ?? null,
        sourceMethod: { CardMethodResp: { cardHint: `**** ${stringAt(answer, 'last4') ?? ''}` } },
        usageScope: null,
        createdAt: stringAt(answer, 'createdAt'),
        updatedAt: stringAt(answer, 'updatedAt'),
      },
    }),
    effect: { at: () => undefined },
  }),
  answers: ok(
    z.object({
      cardPaymentSourceId: z.string().startsWith('psrc_'),
      customerId: z.string().nullable(),
      customerDelegateUserId: z.string().nullable(),
      brand: z.string().nullable(),
      funding: z.string().nullable(),
      last4: z.string().nullable(),
      cardBin: z.string().nullable(),
      expMonth: z.int().nullable(),
      expYear: z.int().nullable(),
      country: z.string().nullable(),
      isDeleted: z.literal(true),
      createdAt: z.string().nullable(),
      updatedAt: z.string().nullable(),
    }),
  ),
  readback: ({ params }) => `/merchants/${params.merchantId}/customers/${params.customerId}/payments/sources`,
});
