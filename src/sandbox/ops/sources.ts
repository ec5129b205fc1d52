import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkCustomer, checkOwner, requireCustomer, visibleTo, type Actor } from '../access.js';
import type { Money, PaymentSource, PaymentToken } from '../model.js';
import type { Store } from '../store.js';
import { page } from './common.js';
import { agreementStatus, findAgreement } from './payto.js';

/** Saves an agreement as a reusable source for the acting customer; a declined agreement is refused. */
export function createPayToSource(
  store: Store,
  actor: Actor,
  input: { agreementToken: string; usageScope?: string | undefined },
): PaymentSource {
  const customerId = requireCustomer(actor);
  const customer = store.get(store.customers, customerId);
  const agreement = findAgreement(store, actor, input.agreementToken, 'sourceMethod.PayToMethod.agreementToken');
  if (agreement.merchantId !== customer.merchantId)
    throw new PaybridgeError('not_found', 'sourceMethod.PayToMethod.agreementToken: no agreement has this token');
  const status = agreementStatus(store, agreement);
  if (status === 'Declined' || status === 'Completed')
    throw new PaybridgeError(
      'agreement_not_active',
      `sourceMethod.PayToMethod.agreementToken: the agreement is ${status}`,
    );
  const at = store.timestamp();
  const source: PaymentSource = {
    paymentSourceId: newId('paymentSource'),
    customerId,
    merchantId: customer.merchantId,
    type: 'payto',
    agreementToken: agreement.token,
    agreementUid: agreement.agreementUid,
    accountIdentifierHint: agreement.accountIdentifierHint,
    usageScope: input.usageScope ?? null,
    card: null,
    createdAt: at,
    updatedAt: at,
  };
  store.addSource(source);
  store.stats.sourcesCreated++;
  return source;
}

export function getSource(store: Store, actor: Actor, sourceId: string): PaymentSource {
  const source = store.get(store.sources, sourceId);
  checkOwner(store, actor, source.merchantId, sourceId);
  checkCustomer(actor, source.customerId, sourceId);
  return source;
}

export function deleteSource(store: Store, actor: Actor, sourceId: string): PaymentSource {
  const source = getSource(store, actor, sourceId);
  store.sources.delete(sourceId);
  const list = store.sourcesByCustomer.get(source.customerId);
  if (list) list.splice(list.indexOf(sourceId), 1);
  store.stats.sourcesDeleted++;
  return source;
}

/** Saved sources of the named customers (only those visible to the actor), oldest first. */
export function listSources(
  store: Store,
  actor: Actor,
  filter: {
    customerId?: string[] | undefined;
    limit?: number | undefined;
    page?: number | undefined;
    sort?: string | undefined;
  },
) {
  // a repeated filter value counts once
  const customers = filter.customerId ? [...new Set(filter.customerId)] : actor.customerId ? [actor.customerId] : null;
  const candidates = customers
    ? customers.flatMap((c) => (store.sourcesByCustomer.get(c) ?? []).map((id) => store.sources.get(id)!))
    : [...store.sources.values()];
  const matching = candidates.filter(
    (s) => visibleTo(store, actor, s.merchantId) && (actor.customerId === null || s.customerId === actor.customerId),
  );
  return page(matching, filter);
}

/** A card payment token from a saved card source (`CreateSavedPaymentSourceToken`). */
export function createSourceToken(
  store: Store,
  actor: Actor,
  input: { paymentSourceId: string; amount: Money },
): PaymentToken {
  const source = getSource(store, actor, input.paymentSourceId);
  if (source.type !== 'card' || !source.card)
    throw new PaybridgeError(
      'source_not_usable',
      `paymentSourceId: ${source.paymentSourceId} is a ${source.type} source, not a card`,
    );
  const token: PaymentToken = {
    paymentTokenId: newId('paymentToken'),
    merchantId: source.merchantId,
    customerId: source.customerId,
    method: 'card',
    amount: input.amount,
    card: source.card,
    agreementToken: null,
    paymentSourceId: source.paymentSourceId,
    surchargeAmount: 0,
    usedBy: null,
    createdAt: store.timestamp(),
  };
  store.tokens.set(token.paymentTokenId, token);
  store.stats.tokensCreated++;
  return token;
}
