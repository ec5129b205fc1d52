import type { FastifyInstance } from 'fastify';
import { sandboxCardSourceRequest, sandboxCardTokenRequest } from '../../contract/current-requests.js';
import { currentErrorBody, PaybridgeError } from '../../errors.js';
import { createFaceApp, parseWith } from '../http.js';
import { createCardSource, createCardToken } from '../ops/cards.js';
import { APRIL_CHECKOUT_PATH, APRIL_CHECKOUT_SCRIPT } from '../checkout/component.js';
import { registerSandboxPages, registerScript } from '../pages.js';
import type { Store } from '../store.js';
import { OPEN_BROWSER_ACCESS, registerBrowserEndpoints, type BrowserAccess } from '../browser.js';
import { registerAccounts } from './accounts.js';
import { registerBusiness } from './business.js';
import { authorise, principalOf } from './context.js';
import { registerCustomers } from './customers.js';
import { registerOrders } from './orders.js';
import { sourceBody } from './render.js';
import { registerSources } from './sources.js';
import { registerTransactions } from './transactions.js';

/** The current face: every call of current-api.md and current-api-decisions.md over the store. */
export function createCurrentFace(store: Store, browser: BrowserAccess = OPEN_BROWSER_ACCESS): FastifyInstance {
  const app = createFaceApp({
    renderError: currentErrorBody,
    notFound: (method, path) =>
      new PaybridgeError('not_found', `${method} ${path} is not an endpoint of the current API`),
  });
  // what the checkout component and a shop's page call from the shopper's browser
  registerBrowserEndpoints(
    app,
    browser,
    [
      { method: 'POST', url: '/sandbox/card-tokens' },
      { method: 'POST', url: '/sandbox/card-sources' },
      { method: 'GET', url: '/sources' },
      { method: 'POST', url: '/tokens' },
      { method: 'POST', url: '/payplans/max' },
      { method: 'POST', url: '/payplans/offer' },
      { method: 'POST', url: '/payto/agreement' },
      { method: 'GET', url: '/payto/agreement' },
    ],
    (req) =>
      principalOf(store, req).then(
        (p) => p.kind,
        () => undefined,
      ),
  );
  registerOrders(app, store);
  registerTransactions(app, store);
  registerCustomers(app, store);
  registerSources(app, store);
  registerAccounts(app, store);
  registerBusiness(app, store);
  registerSandboxPages(app, store, browser);
  // the current generation's checkout component where production serves it: a shop swaps only the origin
  registerScript(app, APRIL_CHECKOUT_PATH, APRIL_CHECKOUT_SCRIPT);

  app.post('/sandbox/card-tokens', async (req) => {
    const actor = await authorise(store, req, 'card-token:create');
    return {
      paymentTokenId: createCardToken(store, actor, parseWith(sandboxCardTokenRequest, req.body)).paymentTokenId,
    };
  });

  app.post('/sandbox/card-sources', async (req) => {
    const actor = await authorise(store, req, 'source:manage');
    return sourceBody(createCardSource(store, actor, parseWith(sandboxCardSourceRequest, req.body)), 'created');
  });
  return app;
}
