import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireCustomer, requireMerchant, visibleTo, type Actor } from '../access.js';
import type { CardBlock, CardDetails, Money, PaymentSource, PaymentToken } from '../model.js';
import type { Store } from '../store.js';
import { PAY_PLAN_VARIANTS, type PayPlanVariant } from '../../contract/current-requests.js';
import { cardDetails, cardHint, page } from './common.js';
import { offerPayPlan } from './payplans.js';

/** Consecutive declines of one card at one merchant after which the card is blocked there. */
const BLOCK_AFTER_DECLINES = 3;

/**
 * The sandbox's stand-in for the checkout web component: a card payment token. With `payPlan` (the
 * checkout's pay-later choice, a customer's credential and the order amount required) the plan is
 * offered first (first instalment now) and the token pays the order through it.
 */
export function createCardToken(
  store: Store,
  actor: Actor,
  input: { cardNumber: string; amount?: Money | undefined; payPlan?: { payPlanVariant: PayPlanVariant } | undefined },
): PaymentToken {
  const merchantId = requireMerchant(actor);
  const card = cardDetails(input.cardNumber);
  let payPlanId: string | undefined;
  if (input.payPlan) {
    const customerId = requireCustomer(actor);
    if (!input.amount) throw new PaybridgeError('invalid_request', 'amount: a pay-later token is for the order amount');
    const { instalments } = PAY_PLAN_VARIANTS[input.payPlan.payPlanVariant];
    const initialPayment = Math.ceil(input.amount.minorCurrencyUnits / instalments);
    payPlanId = offerPayPlan(store, actor, {
      customerId,
      amount: input.amount,
      initialPayment,
      payPlanVariant: input.payPlan.payPlanVariant,
    }).payPlanId;
  }
  const token: PaymentToken = {
    paymentTokenId: newId('paymentToken'),
    merchantId,
    customerId: actor.customerId,
    method: 'card',
    amount: input.amount ?? null,
    card,
    agreementToken: null,
    paymentSourceId: null,
    surchargeAmount: 0,
    usedBy: null,
    createdAt: store.timestamp(),
    ...(payPlanId ? { payPlanId } : {}),
  };
  store.tokens.set(token.paymentTokenId, token);
  store.stats.tokensCreated++;
  return token;
}

/** A saved card source for a customer (sandbox instrument: the current API does not show card sources). */
export function createCardSource(store: Store, actor: Actor, input: { cardNumber: string }): PaymentSource {
  const customerId = requireCustomer(actor);
  const customer = store.get(store.customers, customerId);
  const card = cardDetails(input.cardNumber);
  const at = store.timestamp();
  const source: PaymentSource = {
    paymentSourceId: newId('paymentSource'),
    customerId,
    merchantId: customer.merchantId,
    type: 'card',
    agreementToken: null,
    agreementUid: null,
    accountIdentifierHint: cardHint(card),
    usageScope: null,
    card,
    createdAt: at,
    updatedAt: at,
  };
  store.addSource(source);
  store.stats.sourcesCreated++;
  return source;
}

const declineKey = (merchantId: string, card: CardDetails) => `${merchantId}:${card.fingerprint}`;

export function activeBlock(store: Store, merchantId: string, card: CardDetails): CardBlock | undefined {
  for (const block of store.cardBlocks.values())
    if (block.status === 'blocked' && block.merchantId === merchantId && block.fingerprint === card.fingerprint)
      return block;
  return undefined;
}

/** Counts a decline; the third in a row blocks the card at that merchant. */
export function recordDecline(store: Store, merchantId: string, card: CardDetails): void {
  const key = declineKey(merchantId, card);
  const count = (store.declines.get(key) ?? 0) + 1;
  store.declines.set(key, count);
  if (count >= BLOCK_AFTER_DECLINES && !activeBlock(store, merchantId, card)) {
    const at = store.timestamp();
    const block: CardBlock = {
      cardBlockId: newId('cardBlock'),
      merchantId,
      fingerprint: card.fingerprint,
      cardHint: cardHint(card),
      declines: count,
      status: 'blocked',
      createdAt: at,
      updatedAt: at,
    };
    store.cardBlocks.set(block.cardBlockId, block);
  }
}

export function recordSuccess(store: Store, merchantId: string, card: CardDetails): void {
  store.declines.delete(declineKey(merchantId, card));
}

export function listBlockedCards(
  store: Store,
  actor: Actor,
  query: { limit?: number | undefined; page?: number | undefined; sort?: string | undefined },
) {
  const visible = [...store.cardBlocks.values()].filter((b) => visibleTo(store, actor, b.merchantId));
  return page(visible, query);
}

export function unblockCard(store: Store, actor: Actor, cardBlockId: string): CardBlock {
  const block = store.get(store.cardBlocks, cardBlockId);
  checkOwner(store, actor, block.merchantId, cardBlockId);
  if (block.status !== 'blocked')
    throw new PaybridgeError('invalid_request', `${cardBlockId}: the card is not blocked`);
  block.status = 'unblocked';
  block.updatedAt = store.timestamp();
  store.declines.delete(`${block.merchantId}:${block.fingerprint}`);
  return block;
}
