import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AgreementRequest } from '../../contract/current-requests.js';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireMerchant, type Actor } from '../access.js';
import type { Agreement, AgreementStatus, Money, PaymentToken } from '../model.js';
import type { Store } from '../store.js';
import { sameMoney } from './common.js';

/** Aliases or BBANs containing this are declined by the bank (current-api-decisions.md). */
const DECLINED_ACCOUNT_MARK = '000000';

/**
 * `<bsb>-<first digits>****`: for a BBAN from its own digits; for an alias from the account the bank
 * resolves it to, which the sandbox derives from a hash of the alias.
 */
function accountHint(identifier: Agreement['identifier']): string {
  let digits: string;
  if (identifier.kind === 'Bban') digits = identifier.value.replace(/\D/g, '');
  else {
    const hash = createHash('sha256').update(identifier.value).digest();
    digits = Array.from(hash.subarray(0, 12), (b) => String(b % 10)).join('');
  }
  // `<bsb>-<first digits>****`: at most four of the account's digits, and never more than half of them
  const account = digits.slice(6);
  return `${digits.slice(0, 6)}-${account.slice(0, Math.min(4, Math.floor(account.length / 2)))}****`;
}

export function agreementStatus(store: Store, agreement: Agreement): AgreementStatus {
  if (store.clock() < agreement.activateAt) return 'Pending';
  if (!agreement.bankAccepts) return 'Declined';
  return agreement.completed ? 'Completed' : 'Active';
}

export function createAgreement(store: Store, actor: Actor, input: AgreementRequest): Agreement {
  const merchantId = requireMerchant(actor);
  const id = input.customerAccIdentifier;
  const identifier: Agreement['identifier'] =
    'Alias' in id
      ? { kind: 'Alias', aliasType: id.Alias.aliasType, value: id.Alias.value }
      : { kind: 'Bban', value: id.Bban.value };
  const oneOff = 'AgreementRequestTermsOneOff' in input.terms ? input.terms.AgreementRequestTermsOneOff.amount : null;
  const agreement: Agreement = {
    token: `agmt_${randomBytes(12).toString('hex')}`,
    agreementUid: randomUUID(),
    merchantId,
    customerId: actor.customerId,
    customerName: input.customerName,
    identifier,
    accountIdentifierHint: accountHint(identifier),
    oneOffAmount: oneOff,
    purpose: input.purpose,
    bankAccepts: !identifier.value.includes(DECLINED_ACCOUNT_MARK),
    activateAt: store.clock() + store.agreementDelayMs,
    completed: false,
    createdAt: store.timestamp(),
  };
  store.agreements.set(agreement.token, agreement);
  store.stats.agreementsCreated++;
  return agreement;
}

/** The agreement behind a token, visible to the actor, or 404 naming the field. */
export function findAgreement(store: Store, actor: Actor, token: string, field: string): Agreement {
  const agreement = store.agreements.get(token);
  if (!agreement) throw new PaybridgeError('not_found', `${field}: no agreement has this token`);
  checkOwner(store, actor, agreement.merchantId, `${field}: the agreement`);
  return agreement;
}

export function requireActive(store: Store, agreement: Agreement): void {
  const status = agreementStatus(store, agreement);
  if (status !== 'Active')
    throw new PaybridgeError('agreement_not_active', `agreementToken: the agreement is ${status}`);
}

export function createPayToToken(
  store: Store,
  actor: Actor,
  input: { amount: Money; agreementToken: string },
): PaymentToken {
  const agreement = findAgreement(store, actor, input.agreementToken, 'agreementToken');
  requireActive(store, agreement);
  const oneOff = agreement.oneOffAmount;
  if (oneOff && !sameMoney(input.amount, { minorCurrencyUnits: oneOff.amount, currency: oneOff.currency }))
    throw new PaybridgeError('invalid_request', 'amount: must equal the amount of the one-off agreement');
  const token: PaymentToken = {
    paymentTokenId: newId('paymentToken'),
    merchantId: agreement.merchantId,
    customerId: actor.customerId ?? agreement.customerId,
    method: 'payto',
    amount: input.amount,
    card: null,
    agreementToken: agreement.token,
    paymentSourceId: null,
    surchargeAmount: 0,
    usedBy: null,
    createdAt: store.timestamp(),
  };
  store.tokens.set(token.paymentTokenId, token);
  store.stats.tokensCreated++;
  return token;
}
