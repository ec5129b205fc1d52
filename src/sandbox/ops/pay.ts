import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import type { Actor } from '../access.js';
import type { Order, PaymentToken, ThreeDSAuthorisation, Transaction } from '../model.js';
import type { Store } from '../store.js';
import { surchargeFor } from './business.js';
import { activeBlock, recordDecline, recordSuccess } from './cards.js';
import { addTimeline, cardHint, sameMoney, serviceFees } from './common.js';
import { getOrder } from './orders.js';
import { requireActive } from './payto.js';

export type PayOutcome =
  | { kind: 'paid'; order: Order; transaction: Transaction; token: PaymentToken }
  | { kind: 'threeDS'; authorisation: ThreeDSAuthorisation };

function payableOrder(store: Store, actor: Actor, orderId: string): Order {
  const order = getOrder(store, actor, orderId);
  store.stats.payAttempts++;
  if (order.status === 'paid') throw new PaybridgeError('order_already_paid', `${orderId} is already paid`);
  if (order.status === 'cancelled') throw new PaybridgeError('order_cancelled', `${orderId} is cancelled`);
  return order;
}

/** A token of the order's merchant, unused, of the right method, for the order's amount. */
function usableToken(store: Store, order: Order, paymentTokenId: string, method: PaymentToken['method']): PaymentToken {
  const token = store.tokens.get(paymentTokenId);
  if (!token || token.merchantId !== order.merchantId)
    throw new PaybridgeError('not_found', `paymentTokenId: ${paymentTokenId} was not found`);
  if (token.method !== method)
    throw new PaybridgeError(
      'invalid_request',
      `paymentTokenId: a ${token.method === 'card' ? 'card' : 'PayTo'} token is paid with ${token.method === 'card' ? 'PayByCard' : 'PayByPayTo'}`,
    );
  if (token.usedBy !== null)
    throw new PaybridgeError('token_already_used', `paymentTokenId: ${paymentTokenId} already paid ${token.usedBy}`);
  if (token.amount && !sameMoney(token.amount, order.amount))
    throw new PaybridgeError('invalid_request', 'paymentTokenId: the token amount differs from the order amount');
  return token;
}

/** Creates the transaction of a successful payment: the only place money moves in. */
function completePayment(store: Store, order: Order, token: PaymentToken, authoriseOnly: boolean): PayOutcome {
  const at = store.timestamp();
  const amount = order.amount.minorCurrencyUnits;
  const transaction: Transaction = {
    transactionId: newId('transaction'),
    orderId: order.orderId,
    merchantId: order.merchantId,
    customerId: token.customerId,
    method: token.method,
    accountHint: token.card
      ? cardHint(token.card)
      : (store.agreements.get(token.agreementToken ?? '')?.accountIdentifierHint ?? ''),
    amount,
    currency: order.amount.currency,
    // a card payment carries the merchant's surcharge (Calculate Surcharge tells it beforehand)
    surchargeAmount:
      token.method === 'card'
        ? surchargeFor(store.get(store.merchants, order.merchantId), 'card', amount)
        : token.surchargeAmount,
    refundedAmount: 0,
    status: authoriseOnly ? 'not_captured' : 'paid',
    serviceFees: serviceFees(token.method, amount),
    timelines: [],
    refundIds: [],
    transfers: [],
    paidOn: authoriseOnly ? null : at.slice(0, 10),
    ...(token.payPlanId ? { payPlanId: token.payPlanId } : {}),
    createdAt: at,
    updatedAt: at,
  };
  addTimeline(store, transaction, authoriseOnly ? 'PaymentAuthorised' : 'PaymentSucceed', amount, null);
  store.addTransaction(transaction);
  store.stats.transactionsCreated++;
  token.usedBy = transaction.transactionId;
  order.status = 'paid';
  order.transactionId = transaction.transactionId;
  order.updatedAt = at;
  if (token.card) recordSuccess(store, order.merchantId, token.card);
  const plan = token.payPlanId ? store.payPlans.get(token.payPlanId) : undefined;
  if (plan) Object.assign(plan, { status: 'active', orderId: order.orderId });
  return { kind: 'paid', order, transaction, token };
}

export function payByCard(
  store: Store,
  actor: Actor,
  orderId: string,
  input: { paymentTokenId: string; request3DS?: boolean | undefined; authoriseOnly?: boolean | undefined },
): PayOutcome {
  const order = payableOrder(store, actor, orderId);
  const token = usableToken(store, order, input.paymentTokenId, 'card');
  const card = token.card!;
  if (activeBlock(store, order.merchantId, card)) {
    store.stats.paymentsDeclined++;
    throw new PaybridgeError(
      'card_blocked',
      `paymentTokenId: card ${cardHint(card)} is blocked after repeated declines`,
    );
  }
  if (card.outcome === 'decline') {
    store.stats.paymentsDeclined++;
    recordDecline(store, order.merchantId, card);
    throw new PaybridgeError('do_not_honor', `the issuer declined card ${cardHint(card)}`);
  }
  if (card.outcome === 'threeDS' || input.request3DS === true) {
    const authorisation: ThreeDSAuthorisation = {
      threeDSAuthorisationId: newId('threeDS'),
      orderId,
      paymentTokenId: token.paymentTokenId,
      merchantId: order.merchantId,
      authoriseOnly: input.authoriseOnly === true,
      status: 'pending',
      createdAt: store.timestamp(),
    };
    store.threeDS.set(authorisation.threeDSAuthorisationId, authorisation);
    store.stats.threeDSChallenges++;
    return { kind: 'threeDS', authorisation };
  }
  return completePayment(store, order, token, input.authoriseOnly === true);
}

/**
 * The second call of a 3DS challenge. The sandbox's issuer approves a challenge the shopper approved on
 * the 3DS page or left unanswered; one the shopper declined there is a decline (do_not_honor).
 */
export function confirm3DS(
  store: Store,
  actor: Actor,
  orderId: string,
  input: { paymentTokenId: string; threeDSAuthorisationId: string; authoriseOnly?: boolean | undefined },
): PayOutcome {
  const visible = getOrder(store, actor, orderId);
  const authorisation = store.threeDS.get(input.threeDSAuthorisationId);
  if (!authorisation || authorisation.merchantId !== visible.merchantId)
    throw new PaybridgeError(
      'not_found',
      `threeDSResponse.threeDSAuthorisationId: ${input.threeDSAuthorisationId} was not found`,
    );
  if (authorisation.orderId !== orderId || authorisation.paymentTokenId !== input.paymentTokenId)
    throw new PaybridgeError(
      'invalid_request',
      'threeDSResponse.threeDSAuthorisationId: the authorisation belongs to another order or token',
    );
  // a second confirm of a completed challenge names the challenge, not the order it paid (D-PAY-3)
  if (authorisation.status === 'completed')
    throw new PaybridgeError(
      'threeds_not_pending',
      `threeDSAuthorisationId: ${authorisation.threeDSAuthorisationId} is ${authorisation.status}`,
    );
  const order = payableOrder(store, actor, orderId);
  if (authorisation.status === 'declined')
    throw new PaybridgeError('do_not_honor', 'the card issuer declined the 3DS challenge');
  const token = usableToken(store, order, input.paymentTokenId, 'card');
  authorisation.status = 'completed';
  // the confirm call repeats authoriseOnly (reference); absent, the first call's choice stands
  return completePayment(store, order, token, input.authoriseOnly ?? authorisation.authoriseOnly);
}

export function payByPayTo(store: Store, actor: Actor, orderId: string, input: { paymentTokenId: string }): PayOutcome {
  const order = payableOrder(store, actor, orderId);
  const token = usableToken(store, order, input.paymentTokenId, 'payto');
  const agreement = store.get(store.agreements, token.agreementToken!);
  requireActive(store, agreement);
  const outcome = completePayment(store, order, token, false);
  if (agreement.oneOffAmount) agreement.completed = true;
  return outcome;
}

/**
 * PayByPaymentToken (client: the official plugin): a token that came without card data in this
 * checkout (a saved source's, a pay plan's) pays as its kind pays.
 */
export function payByPaymentToken(
  store: Store,
  actor: Actor,
  orderId: string,
  input: { paymentTokenId: string },
): PayOutcome {
  return store.tokens.get(input.paymentTokenId)?.method === 'payto'
    ? payByPayTo(store, actor, orderId, input)
    : payByCard(store, actor, orderId, input);
}
