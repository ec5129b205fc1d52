import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Actor } from '../access.js';
import { cancelOrder, createOrder, createPayByLinkOrder, getOrder, updateReferenceOrderId } from '../ops/orders.js';
import { confirm3DS, payByCard } from '../ops/pay.js';
import type { Store } from '../store.js';
import { legacyOrder, legacyPayResult } from './render.js';
import { legacyRoute, type LegacyCall } from './route.js';
import { internalOrderIdBody, invoiceBody, orderBody, payBody } from './schemas.js';
import type { Order } from '../model.js';

type LegacyOrderBody = z.output<typeof orderBody>;

/** Legacy shipping in the store's terms: `phone` is `phoneNumber`; absent fields stay absent. */
function shippingFields({ phone, ...rest }: NonNullable<LegacyOrderBody['shipping']>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[k] = v;
  if (phone !== undefined) out.phoneNumber = phone;
  return out as NonNullable<Order['shipping']>;
}

/** L1/L2 body in the store's terms: renames and money shapes, absent fields left absent. */
function orderFields(body: LegacyOrderBody) {
  const billing = body.billing;
  return {
    referenceOrderId: body.internalOrderId,
    amount: { minorCurrencyUnits: body.paymentAmount.amount, currency: body.paymentAmount.currency },
    description: body.description,
    customerEmailAddress: body.customerEmail,
    customerPhoneNumber: body.phoneNo,
    items: body.items?.map((i) => ({
      amount: { minorCurrencyUnits: i.amount, currency: i.currency },
      description: i.description,
      quantity: i.quantity,
      ...(i.sku !== undefined ? { sku: i.sku } : {}),
      ...(i.imageUrl !== undefined ? { imageUrl: i.imageUrl } : {}),
    })),
    discountAmount: body.discount?.amount,
    shipping: body.shipping && shippingFields(body.shipping),
    billing: {
      ...(billing.address !== undefined ? { address: billing.address } : {}),
      ...(billing.name !== undefined ? { name: billing.name } : {}),
      ...(billing.email !== undefined ? { emailAddress: billing.email } : {}),
      ...(billing.phone !== undefined ? { phoneNumber: billing.phone } : {}),
    },
    metadata: body.metadata,
  };
}

/** L4/L5: a first call pays (or asks for 3DS with a 403); a call carrying paymentActionRequired completes 3DS. */
function pay({ store, actor, params, body, reply }: LegacyCall<z.output<typeof payBody>, unknown>) {
  const orderId = params.merchantOrderId!;
  const outcome = body.paymentActionRequired
    ? confirm3DS(store, actor, orderId, {
        paymentTokenId: body.paymentToken,
        threeDSAuthorisationId: body.paymentActionRequired.threeDSAuthorisationId,
      })
    : payByCard(store, actor, orderId, {
        paymentTokenId: body.paymentToken,
        request3DS: body.request3DS,
        authoriseOnly: body.authoriseOnly,
      });
  if (outcome.kind === 'threeDS') {
    const id = outcome.authorisation.threeDSAuthorisationId;
    return reply.code(403).send({
      paymentToken: body.paymentToken,
      paymentActionRequired: {
        threeDSAuthorisationId: id,
        redirectURL: `${reply.request.protocol}://${reply.request.host}/sandbox/3ds/${id}`,
      },
    });
  }
  return legacyPayResult(outcome.transaction);
}

const create = (store: Store, actor: Actor, body: LegacyOrderBody) =>
  legacyOrder(createOrder(store, actor, orderFields(body), 'online'));

export function registerLegacyOrders(app: FastifyInstance, store: Store): void {
  // L1
  app.post(
    '/orders',
    legacyRoute(store, { capability: 'order:create', body: orderBody }, (c) => create(store, c.actor, c.body)),
  );
  // L2
  app.post(
    '/platforms/:platformId/merchants/:merchantId/orders',
    legacyRoute(
      store,
      {
        capability: 'order:create',
        ids: { platformId: 'marketplace', merchantId: 'merchant' },
        body: orderBody,
        claim: (p) => ({ marketplaceId: p.platformId, merchantId: p.merchantId }),
      },
      (c) => create(store, c.actor, c.body),
    ),
  );
  // L3
  app.get(
    '/orders/:merchantOrderId',
    legacyRoute(store, { capability: 'order:read', ids: { merchantOrderId: 'order' } }, (c) =>
      legacyOrder(getOrder(store, c.actor, c.params.merchantOrderId!)),
    ),
  );
  // L4
  app.post(
    '/orders/:merchantOrderId/pay',
    legacyRoute(store, { capability: 'pay', ids: { merchantOrderId: 'order' }, body: payBody }, pay),
  );
  // L5
  app.post(
    '/platforms/:platformId/merchants/:merchantId/orders/:merchantOrderId/pay',
    legacyRoute(
      store,
      {
        capability: 'pay',
        ids: { platformId: 'marketplace', merchantId: 'merchant', merchantOrderId: 'order' },
        body: payBody,
        claim: (p) => ({ marketplaceId: p.platformId, merchantId: p.merchantId }),
      },
      pay,
    ),
  );
  // L11
  app.put(
    '/orders/:merchantOrderId/internalOrderId',
    legacyRoute(
      store,
      { capability: 'order:update', ids: { merchantOrderId: 'order' }, body: internalOrderIdBody },
      (c) => legacyOrder(updateReferenceOrderId(store, c.actor, c.params.merchantOrderId!, c.body.internalOrderId)),
    ),
  );
  // L30: the .NET SDK's update
  app.patch(
    '/orders/:merchantOrderId',
    legacyRoute(
      store,
      { capability: 'order:update', ids: { merchantOrderId: 'order' }, body: internalOrderIdBody },
      (c) => legacyOrder(updateReferenceOrderId(store, c.actor, c.params.merchantOrderId!, c.body.internalOrderId)),
    ),
  );
  // L31: a pay-by-link order (invoice) with its checkout token and magic link
  app.post(
    '/orders/invoices',
    legacyRoute(store, { capability: 'order:create', body: invoiceBody }, (c) => {
      const link = createPayByLinkOrder(
        store,
        c.actor,
        {
          ...orderFields(c.body.orderRequest),
          sendSms: c.body.sendSms,
          sendEmail: c.body.sendEmail ?? c.body.SendEmail,
        },
        `${c.req.protocol}://${c.req.host}`,
      );
      return { order: legacyOrder(link.order), token: link.token, magicLink: link.magicLink };
    }),
  );
  // L12
  app.delete(
    '/orders/:merchantOrderId',
    legacyRoute(store, { capability: 'order:update', ids: { merchantOrderId: 'order' } }, (c) =>
      legacyOrder(cancelOrder(store, c.actor, c.params.merchantOrderId!)),
    ),
  );
}
