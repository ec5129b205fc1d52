import type { FastifyInstance } from 'fastify';
import { hasIdForm } from '../contract/ids.js';
import type { Store } from './store.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Unauthenticated sandbox pages both faces serve: the store's counts and the 3DS challenge page. */
export function registerSandboxPages(app: FastifyInstance, store: Store): void {
  app.get('/sandbox/stats', async () => ({ ...store.stats }));

  // The page a 3DS redirectUrl points at. The sandbox issuer approves every challenge, so the page only
  // tells the shopper to return to the merchant; the merchant then confirms (Confirm3DSComplete).
  // The page a pay-by-link magic link opens: the order, shown to whoever holds its checkout token.
  app.get('/sandbox/checkout/:orderId', async (req, reply) => {
    const orderId = (req.params as { orderId: string }).orderId;
    const token = (req.query as { token?: unknown }).token;
    const grant = typeof token === 'string' ? store.checkoutTokens.get(token) : undefined;
    const order = hasIdForm('order', orderId) ? store.orders.get(orderId) : undefined;
    const valid = grant && order && grant.merchantId === order.merchantId && (grant.expiresAt === undefined || grant.expiresAt > store.clock());
    const text = valid
      ? `Order ${escapeHtml(order.orderId)} (${escapeHtml(order.referenceOrderId)}): ${(order.amount.minorCurrencyUnits / 100).toFixed(2)} ${escapeHtml(order.amount.currency)}, ${escapeHtml(order.status)}.`
      : 'This payment link is not valid or has expired.';
    return reply
      .code(valid ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('referrer-policy', 'no-referrer')
      .send(`<!doctype html><html><head><title>Sandbox checkout</title></head><body><p>${text}</p></body></html>`);
  });

  app.get('/sandbox/3ds/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const auth = hasIdForm('threeDS', id) ? store.threeDS.get(id) : undefined;
    const text = auth
      ? `3DS challenge ${escapeHtml(id)} for order ${escapeHtml(auth.orderId)}: approved by the sandbox issuer (${auth.status}).`
      : `No 3DS challenge ${escapeHtml(id)}.`;
    return reply
      .code(auth ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(`<!doctype html><html><head><title>Sandbox 3DS</title></head><body><p>${text}</p></body></html>`);
  });
}
