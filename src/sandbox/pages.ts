import type { FastifyInstance } from 'fastify';
import { hasIdForm } from '../contract/ids.js';
import type { Store } from './store.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Unauthenticated sandbox pages both faces serve: the store's counts and the 3DS challenge page. */
export function registerSandboxPages(app: FastifyInstance, store: Store): void {
  app.get('/sandbox/stats', async () => ({ ...store.stats }));

  // The page a 3DS redirectUrl points at. The sandbox issuer approves every challenge, so the page only
  // tells the shopper to return to the merchant; the merchant then confirms (Confirm3DSComplete).
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
