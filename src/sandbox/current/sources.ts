import type { FastifyInstance } from 'fastify';
import { PaybridgeError } from '../../errors.js';
import {
  blockedCardUpdateRequest,
  createSourceRequest,
  createTokenRequest,
  pageQuery,
  sourceQuery,
} from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
import { listBlockedCards, unblockCard } from '../ops/cards.js';
import { createPayToToken } from '../ops/payto.js';
import { createPayToSource, createSourceToken, deleteSource, getSource, listSources } from '../ops/sources.js';
import { createCardToken } from '../ops/cards.js';
import type { Store } from '../store.js';
import { actorFor, authorise, authoriseExcept, principalOf } from './context.js';
import { blockedCardBody, payToTokenBody, sourceBody } from './render.js';

/** Payment sources, blocked cards and payment tokens. */
export function registerSources(app: FastifyInstance, store: Store): void {
  app.post('/sources', async (req) => {
    const actor = await authorise(store, req, 'source:manage');
    const { CreateSavedPaymentSource: input } = parseWith(createSourceRequest, req.body);
    return sourceBody(
      createPayToSource(store, actor, {
        agreementToken: input.sourceMethod.PayToMethod.agreementToken,
        usageScope: input.usageScope,
      }),
      'created',
    );
  });

  app.get('/sources', async (req) => {
    const actor = await authorise(store, req, 'source:manage');
    const result = listSources(store, actor, parseWith(sourceQuery, req.query, 'query'));
    return result.items.map((source) => sourceBody(source));
  });

  app.get('/sources/blockedcards', async (req) => {
    const actor = await authorise(store, req, 'blockedcard:manage');
    const result = listBlockedCards(store, actor, parseWith(pageQuery, req.query, 'query'));
    return result.items.map(blockedCardBody);
  });

  app.patch('/sources/blockedcards/:cardBlockId', async (req) => {
    const actor = await authorise(store, req, 'blockedcard:manage');
    const cardBlockId = pathId('cardBlock', req, 'cardBlockId');
    parseWith(blockedCardUpdateRequest, req.body);
    return blockedCardBody(unblockCard(store, actor, cardBlockId));
  });

  app.get('/sources/:sourceId', async (req) => {
    // Get Payment Source's security list (reference): a marketplace API key, a customer's JWT (admin JWTs are not emulated)
    const actor = await authoriseExcept(
      store,
      req,
      'source:manage',
      ['publicKey', 'secretKey', 'merchantJwt', 'marketplaceJwt'],
      'Get Payment Source',
    );
    return sourceBody(getSource(store, actor, pathId('paymentSource', req, 'sourceId')));
  });

  app.delete('/sources/:sourceId', async (req, reply) => {
    const actor = await authorise(store, req, 'source:manage');
    deleteSource(store, actor, pathId('paymentSource', req, 'sourceId'));
    return reply.code(204).send();
  });

  app.post('/tokens', async (req) => {
    const principal = await principalOf(store, req);
    const body = parseWith(createTokenRequest, req.body);
    if ('CreatePayToToken' in body) {
      const actor = actorFor(store, req, principal, 'payto-token:create');
      return payToTokenBody(store, createPayToToken(store, actor, body.CreatePayToToken));
    }
    if ('CreateCardToken' in body) {
      // the public card capture interface: a card token from raw card data, with the public key
      const actor = actorFor(store, req, principal, 'card-token:create');
      const { cardNumber, expiryMonth, expiryYear, amount } = body.CreateCardToken;
      const now = new Date(store.clock());
      if (
        expiryYear < now.getUTCFullYear() ||
        (expiryYear === now.getUTCFullYear() && expiryMonth < now.getUTCMonth() + 1)
      )
        throw new PaybridgeError('invalid_request', 'CreateCardToken.expiryYear: the card has expired');
      const token = createCardToken(store, actor, { cardNumber, amount });
      return { CardToken: { paymentTokenId: token.paymentTokenId, amount: token.amount } };
    }
    // a saved source's token (client: the official plugin's generate_payment_token)
    const actor = actorFor(store, req, principal, 'source-token:create');
    const token = createSourceToken(store, actor, body.CreateSavedPaymentSourceToken);
    return { SavedPaymentSourceToken: { paymentTokenId: token.paymentTokenId } };
  });
}
