import type { FastifyInstance } from 'fastify';
import { hasIdForm } from '../../contract/ids.js';
import {
  legacyReverseBody,
  legacyTransferAnswer,
  legacyTransferBody,
  noTransferToReverse,
  transferToReverse,
} from '../../contract/legacy-transfers.js';
import { PaybridgeError } from '../../errors.js';
import type { Actor } from '../access.js';
import {
  cancelAuthorisation,
  capture,
  getTransaction,
  queryTransactions,
  refund,
  reverseTransfer,
  transferFunds,
} from '../ops/transactions.js';
import type { Store } from '../store.js';
import { legacyTransaction } from './render.js';
import { legacyRoute } from './route.js';
import { captureBody, refundBody, transactionsQuery } from './schemas.js';

/** A legacy money amount must be in the transaction's currency; checked before anything moves. */
function checkCurrency(
  store: Store,
  actor: Actor,
  transactionId: string,
  currency: string | undefined,
  field: string,
): void {
  const tx = getTransaction(store, actor, transactionId);
  if (currency !== undefined && currency !== tx.currency)
    throw new PaybridgeError(
      'currency_mismatch',
      `${field}: ${currency} differs from the transaction currency ${tx.currency}`,
    );
}

/** L26/L27: the named merchant must be the transaction's own, and the currency the transaction's. */
function checkTransferParties(
  store: Store,
  actor: Actor,
  transactionId: string,
  merchantId: string,
  merchantField: string,
  currency: string,
  currencyField: string,
) {
  const tx = getTransaction(store, actor, transactionId);
  if (merchantId !== tx.merchantId)
    throw new PaybridgeError(
      'invalid_request',
      `${merchantField}: ${merchantId} is not the merchant of ${transactionId}`,
    );
  checkCurrency(store, actor, transactionId, currency, currencyField);
  return tx;
}

export function registerLegacyTransactions(app: FastifyInstance, store: Store): void {
  const tx = (id: string, actor: Actor) => legacyTransaction(store, getTransaction(store, actor, id));
  // L6; given an order id (as the .NET SDK's tests do), that order's most recent transaction
  app.get(
    '/transactions/:transactionId',
    legacyRoute(store, { capability: 'transaction:read', ids: { transactionId: ['transaction', 'order'] } }, (c) => {
      const id = c.params.transactionId!;
      if (!hasIdForm('order', id)) return tx(id, c.actor);
      const latest = queryTransactions(store, c.actor, { orderId: [id], limit: Number.MAX_SAFE_INTEGER }).items.at(-1);
      if (!latest) throw new PaybridgeError('not_found', 'transactionId: the order has no transaction');
      return legacyTransaction(store, latest);
    }),
  );
  // L7, L8: answered with the refund just created
  const refundRoute = (platform: boolean) =>
    legacyRoute(
      store,
      {
        capability: 'refund',
        ids: platform ? { platformId: 'marketplace' } : {},
        body: refundBody,
        claim: (p) => ({ marketplaceId: p.platformId }),
      },
      (c) => {
        const { transactionId, refundAmount } = c.body;
        checkCurrency(store, c.actor, transactionId, refundAmount.currency, 'refundAmount.currency');
        return { refundId: refund(store, c.actor, transactionId, refundAmount.amount).refund.refundId };
      },
    );
  app.post('/refunds', refundRoute(false));
  app.post('/platforms/:platformId/refunds', refundRoute(true));
  // L9
  app.post(
    '/transactions/:transactionId/authorisation::capture',
    legacyRoute(
      store,
      { capability: 'transaction:update', ids: { transactionId: 'transaction' }, body: captureBody },
      (c) => {
        const id = c.params.transactionId!;
        const amount = c.body.captureAmount;
        // unset: the whole authorised amount (the .NET SDK's CaptureTransaction(id, new CreateCaptureRequest()) sends {})
        if (amount === undefined || typeof amount === 'number')
          return legacyTransaction(store, capture(store, c.actor, id, amount));
        checkCurrency(store, c.actor, id, amount.currency, 'captureAmount.currency');
        return legacyTransaction(store, capture(store, c.actor, id, amount.amount));
      },
    ),
  );
  // L10
  app.delete(
    '/transactions/:transactionId/authorisation',
    legacyRoute(store, { capability: 'transaction:update', ids: { transactionId: 'transaction' } }, (c) =>
      legacyTransaction(store, cancelAuthorisation(store, c.actor, c.params.transactionId!)),
    ),
  );
  // L17
  app.get(
    '/transactions',
    legacyRoute(store, { capability: 'transaction:read', query: transactionsQuery }, (c) => {
      const orderId = c.query.merchantOrderId;
      // the legacy list is not paged: every transaction, never a first page of them
      const result = queryTransactions(store, c.actor, {
        orderId: orderId === undefined ? undefined : [orderId],
        limit: Number.MAX_SAFE_INTEGER,
      });
      return { transactions: result.items.map((t) => legacyTransaction(store, t)) };
    }),
  );
  // L26 (legacy reference body and answer)
  app.post(
    '/transactions/:transactionId/transfers',
    legacyRoute(
      store,
      { capability: 'transfer', ids: { transactionId: 'transaction' }, body: legacyTransferBody },
      (c) => {
        const id = c.params.transactionId!;
        checkTransferParties(
          store,
          c.actor,
          id,
          c.body.fromMerchant,
          'fromMerchant',
          c.body.transferAmount.currency,
          'transferAmount.currency',
        );
        const done = transferFunds(store, c.actor, id, {
          transferAmount: c.body.transferAmount.amount,
          destinationMerchantId: c.body.toMerchant,
          surchargeFee: c.body.surcharge,
          levy: c.body.levy ?? null,
        });
        return legacyTransferAnswer(done);
      },
    ),
  );
  // L27 (legacy reference): the reference names no transfer, the most recent matching one is reversed
  app.post(
    '/transactions/:transactionId/transfers::reverse',
    legacyRoute(
      store,
      { capability: 'transfer', ids: { transactionId: 'transaction' }, body: legacyReverseBody },
      (c) => {
        const id = c.params.transactionId!;
        const tx = checkTransferParties(
          store,
          c.actor,
          id,
          c.body.toMerchant,
          'toMerchant',
          c.body.reverseAmount.currency,
          'reverseAmount.currency',
        );
        const transfer = transferToReverse(tx.transfers, c.body);
        if (!transfer) throw new PaybridgeError('invalid_request', noTransferToReverse(c.body));
        return legacyTransferAnswer(reverseTransfer(store, c.actor, id, transfer.transferId));
      },
    ),
  );
}
