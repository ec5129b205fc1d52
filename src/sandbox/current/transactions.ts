import type { FastifyInstance } from 'fastify';
import { transactionActionRequest, transactionQuery } from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
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
import { actorFor, authorise, principalOf } from './context.js';
import { transactionBody } from './render.js';

export function registerTransactions(app: FastifyInstance, store: Store): void {
  app.get('/transactions/:transactionId', async (req) => {
    const actor = await authorise(store, req, 'transaction:read');
    return transactionBody(store, getTransaction(store, actor, pathId('transaction', req, 'transactionId')));
  });

  app.get('/transactions', async (req) => {
    const actor = await authorise(store, req, 'transaction:read');
    const query = parseWith(transactionQuery, req.query, 'query');
    const result = queryTransactions(store, actor, query);
    return result.items.map((tx) => transactionBody(store, tx));
  });

  app.patch('/transactions/:transactionId', async (req) => {
    const principal = await principalOf(store, req);
    const transactionId = pathId('transaction', req, 'transactionId');
    const body = parseWith(transactionActionRequest, req.body);
    if ('CreateRefund' in body) {
      const actor = actorFor(store, req, principal, 'refund');
      return transactionBody(store, refund(store, actor, transactionId, body.CreateRefund.refundAmount).transaction);
    }
    if ('TransferFunds' in body)
      return transactionBody(
        store,
        transferFunds(store, actorFor(store, req, principal, 'transfer'), transactionId, body.TransferFunds),
      );
    if ('ReverseFundsTransfer' in body) {
      const actor = actorFor(store, req, principal, 'transfer');
      return transactionBody(store, reverseTransfer(store, actor, transactionId, body.ReverseFundsTransfer.transferId));
    }
    const actor = actorFor(store, req, principal, 'transaction:update');
    if ('CaptureFunds' in body)
      return transactionBody(store, capture(store, actor, transactionId, body.CaptureFunds.amount));
    return transactionBody(store, cancelAuthorisation(store, actor, transactionId));
  });
}
