import type { FastifyInstance } from 'fastify';
import { createOrderRequest, payOrderRequest, updateOrderRequest } from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
import { cancelOrder, createOrder, createPayByLinkOrder, getOrder, updateReferenceOrderId } from '../ops/orders.js';
import { confirm3DS, payByCard, payByPaymentToken, payByPayTo, type PayOutcome } from '../ops/pay.js';
import type { Store } from '../store.js';
import { authorise } from './context.js';
import { cardPayBody, orderBody, payToPayBody, threeDSBody } from './render.js';

export function registerOrders(app: FastifyInstance, store: Store): void {
  app.post('/orders', async (req) => {
    const actor = await authorise(store, req, 'order:create');
    const body = parseWith(createOrderRequest, req.body);
    if ('CreateOnlineOrder' in body) return orderBody(createOrder(store, actor, body.CreateOnlineOrder, 'online'));
    const link = createPayByLinkOrder(store, actor, body.CreatePayByLink, `${req.protocol}://${req.host}`);
    return {
      PayByLinkOrder: { order: orderBody(link.order).OnlineOrder.order, token: link.token, magicLink: link.magicLink },
    };
  });

  app.get('/orders/:orderId', async (req) => {
    const actor = await authorise(store, req, 'order:read');
    return orderBody(getOrder(store, actor, pathId('order', req, 'orderId')));
  });

  app.patch('/orders/:orderId', async (req) => {
    const actor = await authorise(store, req, 'order:update');
    const orderId = pathId('order', req, 'orderId');
    const { UpdateReferenceOrderId: input } = parseWith(updateOrderRequest, req.body);
    return orderBody(updateReferenceOrderId(store, actor, orderId, input.referenceOrderId)).OnlineOrder.order;
  });

  // Cancel Order (reference): DELETE, the order no longer payable; the bare order answers
  app.delete('/orders/:orderId', async (req) => {
    const actor = await authorise(store, req, 'order:update');
    return orderBody(cancelOrder(store, actor, pathId('order', req, 'orderId'))).OnlineOrder.order;
  });

  app.post('/orders/:orderId/pay', async (req) => {
    const actor = await authorise(store, req, 'pay');
    const orderId = pathId('order', req, 'orderId');
    const body = parseWith(payOrderRequest, req.body);
    const outcome: PayOutcome =
      'PayByCard' in body
        ? payByCard(store, actor, orderId, body.PayByCard)
        : 'PayByPayTo' in body
          ? payByPayTo(store, actor, orderId, body.PayByPayTo)
          : 'PayByPaymentToken' in body
            ? payByPaymentToken(store, actor, orderId, body.PayByPaymentToken)
            : confirm3DS(store, actor, orderId, {
                paymentTokenId: body.Confirm3DSComplete.paymentTokenId,
                threeDSAuthorisationId: body.Confirm3DSComplete.threeDSResponse.threeDSAuthorisationId,
                authoriseOnly: body.Confirm3DSComplete.authoriseOnly,
              });
    if (outcome.kind === 'threeDS') return threeDSBody(outcome.authorisation, `${req.protocol}://${req.host}`);
    return outcome.transaction.method === 'card'
      ? cardPayBody(outcome.transaction)
      : payToPayBody(store, outcome.transaction);
  });
}
