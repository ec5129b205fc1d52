import type { OnlineOrderFields, PayByLinkOrderFields } from '../../contract/current-requests.js';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireMerchant, type Actor } from '../access.js';
import type { Order } from '../model.js';
import type { Store } from '../store.js';
import { issueCheckoutToken } from './customers.js';

export function createOrder(
  store: Store,
  actor: Actor,
  input: OnlineOrderFields,
  orderType: Order['orderType'],
): Order {
  const merchantId = requireMerchant(actor);
  const merchant = store.get(store.merchants, merchantId);
  const at = store.timestamp();
  const order: Order = {
    orderId: newId('order'),
    merchantId,
    marketplaceId: merchant.marketplaceId,
    orderType,
    referenceOrderId: input.referenceOrderId,
    amount: input.amount,
    description: input.description ?? null,
    customerEmailAddress: input.customerEmailAddress ?? null,
    customerPhoneNumber: input.customerPhoneNumber ?? null,
    items: input.items ?? null,
    discountAmount: input.discountAmount ?? null,
    shipping: input.shipping ?? null,
    billing: input.billing ?? null,
    metadata: input.metadata ?? null,
    status: 'created',
    transactionId: null,
    createdAt: at,
    updatedAt: at,
  };
  store.orders.set(order.orderId, order);
  store.stats.ordersCreated++;
  return order;
}

/**
 * A pay-by-link order: the order, a checkout auth token for its merchant and a magic link carrying
 * it (the sandbox's checkout page). The sandbox sends no SMS or e-mail; sendSms/sendEmail are accepted.
 */
export function createPayByLinkOrder(store: Store, actor: Actor, input: PayByLinkOrderFields, baseUrl: string) {
  const { sendSms: _sms, sendEmail: _email, ...fields } = input;
  const order = createOrder(store, actor, fields, 'paybylink');
  const token = issueCheckoutToken(store, order.merchantId, null);
  return { order, token, magicLink: `${baseUrl}/sandbox/checkout/${order.orderId}?token=${encodeURIComponent(token)}` };
}

/** An order the actor may see, or 404. */
export function getOrder(store: Store, actor: Actor, orderId: string): Order {
  const order = store.get(store.orders, orderId);
  checkOwner(store, actor, order.merchantId, orderId);
  return order;
}

export function updateReferenceOrderId(store: Store, actor: Actor, orderId: string, referenceOrderId: string): Order {
  const order = getOrder(store, actor, orderId);
  order.referenceOrderId = referenceOrderId;
  order.updatedAt = store.timestamp();
  return order;
}

/** Cancels an unpaid order; cancelling a cancelled order answers it unchanged; a paid order is a 409. */
export function cancelOrder(store: Store, actor: Actor, orderId: string): Order {
  const order = getOrder(store, actor, orderId);
  if (order.status === 'paid')
    throw new PaybridgeError('order_not_cancellable', `${orderId}: a paid order cannot be cancelled`);
  if (order.status === 'created') {
    order.status = 'cancelled';
    order.updatedAt = store.timestamp();
  }
  return order;
}
