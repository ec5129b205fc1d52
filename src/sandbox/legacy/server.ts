import type { FastifyInstance } from 'fastify';
import { legacyErrorBody, PaybridgeError } from '../../errors.js';
import { createFaceApp } from '../http.js';
import { createCardToken } from '../ops/cards.js';
import { registerSandboxPages } from '../pages.js';
import type { Store } from '../store.js';
import { OPEN_BROWSER_ACCESS, registerBrowserEndpoints, type BrowserAccess } from '../browser.js';
import { legacyCredential } from './credentials.js';
import { registerLegacyCustomers } from './customers.js';
import { registerLegacyMerchants } from './merchants.js';
import { registerLegacyOrders } from './orders.js';
import { legacyRoute } from './route.js';
import { sandboxCardTokenBody } from './schemas.js';
import { registerLegacyTransactions } from './transactions.js';

/** The legacy face: the legacy routes of legacy-api.md (each mapping's native twin, the comparison oracle) over the same store as the current face. */
export function createLegacyFace(store: Store, browser: BrowserAccess = OPEN_BROWSER_ACCESS): FastifyInstance {
  const app = createFaceApp({
    renderError: legacyErrorBody,
    notFound: (method, path) => new PaybridgeError('route_not_mapped', `${method} ${path} is not a legacy route`),
  });
  registerBrowserEndpoints(
    app,
    browser,
    [
      { method: 'POST', url: '/sandbox/card-tokens' },
      { method: 'POST', url: '/sandbox/card-sources' },
    ],
    async (req) => {
      try {
        const { principal } = legacyCredential(req).rule;
        return principal === 'merchantToken' ? 'secretKey' : principal;
      } catch {
        return undefined;
      }
    },
  );
  registerLegacyOrders(app, store);
  registerLegacyTransactions(app, store);
  registerLegacyCustomers(app, store);
  registerLegacyMerchants(app, store);
  registerSandboxPages(app, store, browser);
  app.post(
    '/sandbox/card-tokens',
    legacyRoute(store, { capability: 'card-token:create', body: sandboxCardTokenBody }, (c) => ({
      paymentTokenId: createCardToken(store, c.actor, c.body).paymentTokenId,
    })),
  );
  return app;
}
