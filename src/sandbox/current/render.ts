/** Store records in the current API's shapes (current-api.md, current-api-decisions.md). */
import type {
  CardBlock,
  Customer,
  Merchant,
  Order,
  PaymentSource,
  PaymentToken,
  ThreeDSAuthorisation,
  Transaction,
} from '../model.js';
import type { Store } from '../store.js';

/**
 * The order object (reference sample): besides the order's fields, `customerName` (the billing name),
 * `surcharge` (the sandbox reports a surcharge on the transaction, so none here) and `orderTypeDetails`.
 */
export function orderBody(order: Order) {
  const { transactionId: _paidBy, ...fields } = order;
  const reference = {
    customerName: order.billing?.name ?? null,
    surcharge: { surchargeOptions: null, surchargePaidAmount: null },
    orderTypeDetails: null,
  };
  return { OnlineOrder: { order: { ...fields, ...reference } } };
}

const PAYMENT_STATUS = { not_captured: 'Authorised', cancelled: 'Cancelled' } as const;

export function transactionBody(store: Store, tx: Transaction) {
  const order = store.orders.get(tx.orderId)!;
  const merchant = store.merchants.get(tx.merchantId)!;
  const customer = tx.customerId ? store.customers.get(tx.customerId) : undefined;
  return {
    purchaseDetails: {
      orderId: tx.orderId,
      merchantId: tx.merchantId,
      marketplaceId: order.marketplaceId,
      referenceOrderId: order.referenceOrderId,
      amount: { minorCurrencyUnits: tx.amount, currency: tx.currency },
      surchargeAmount: tx.surchargeAmount,
      refundedAmount: tx.refundedAmount,
      merchantName: merchant.name,
      transactionId: tx.transactionId,
      orderType: order.orderType,
      payType: tx.payPlanId ? 'PayPlan' : 'PayInFull',
      ...(tx.payPlanId ? { payPlanId: tx.payPlanId } : {}),
      description: order.description,
      orderMetadata: order.metadata,
      status: tx.status,
      refundIds: tx.refundIds,
      disputeId: null,
      disputeIds: [],
      paidOn: tx.paidOn,
      createdAt: tx.createdAt,
      updatedAt: tx.updatedAt,
    },
    paymentMethod: {
      paymentMethodType: tx.method === 'card' ? 'Card' : 'PayTo',
      accountHint: tx.accountHint,
      paymentStatus: tx.status === 'not_captured' || tx.status === 'cancelled' ? PAYMENT_STATUS[tx.status] : 'Settled',
      paymentFailure: null,
    },
    serviceFees: tx.serviceFees,
    customerDetails: customer
      ? {
          customerId: customer.customerId,
          emailAddress: customer.emailAddress,
          givenName: customer.givenName,
          familyName: customer.familyName,
        }
      : null,
    timelines: tx.timelines,
    transfers: tx.transfers,
  };
}

/**
 * Card pay answer: current-api.md's flat fields inside `PayOrderComplete`, the only 2xx success the
 * official plugin takes (current-api-decisions.md), `type` the same value as `payType` (the guide's name).
 */
export function cardPayBody(tx: Transaction) {
  const payType = tx.payPlanId ? 'payplan' : 'payinfull';
  return {
    PayOrderComplete: {
      transactionId: tx.transactionId,
      transactionStatus: tx.status,
      amount: tx.amount,
      currency: tx.currency,
      surchargeAmount: tx.surchargeAmount,
      payType,
      type: payType,
    },
  };
}

export function payToPayBody(store: Store, tx: Transaction) {
  return {
    PayOrderComplete: {
      transactionId: tx.transactionId,
      transactionStatus: tx.status,
      transactionDetails: transactionBody(store, tx),
      amount: tx.amount,
      currency: tx.currency,
      surchargeAmount: tx.surchargeAmount,
      payType: 'payinfull',
    },
  };
}

export function threeDSBody(auth: ThreeDSAuthorisation, baseUrl: string) {
  return {
    ThreeDSAuthorisationRequired: {
      threeDSAuthorisationId: auth.threeDSAuthorisationId,
      redirectUrl: `${baseUrl}/sandbox/3ds/${auth.threeDSAuthorisationId}`,
    },
  };
}

export function payToTokenBody(store: Store, token: PaymentToken) {
  const agreement = store.agreements.get(token.agreementToken!)!;
  return {
    PayToToken: {
      paymentTokenId: token.paymentTokenId,
      amount: token.amount,
      surchargeAmount: token.surchargeAmount,
      agreementUid: agreement.agreementUid,
      accountIdentifierHint: agreement.accountIdentifierHint,
    },
  };
}

/**
 * A saved source; usageScope is null in answers, as current-api.md shows it even when one was requested.
 * Created: with `legacyResp` (the create answer); read (Get, list): with `customerDelegateId` instead (reference).
 */
export function sourceBody(source: PaymentSource, form: 'created' | 'read' = 'read') {
  const sourceMethod =
    source.type === 'payto'
      ? { PayToMethodResp: { agreementUid: source.agreementUid!, accountIdentifierHint: source.accountIdentifierHint } }
      : { CardMethodResp: { cardHint: source.accountIdentifierHint } };
  const { paymentSourceId, customerId, merchantId, createdAt, updatedAt } = source;
  return form === 'created'
    ? {
        paymentSourceId,
        customerId,
        merchantId,
        sourceMethod,
        usageScope: null,
        createdAt,
        updatedAt,
        legacyResp: null,
      }
    : {
        paymentSourceId,
        customerId,
        merchantId,
        customerDelegateId: null,
        sourceMethod,
        usageScope: null,
        createdAt,
        updatedAt,
      };
}

export function customerListItem(c: Customer) {
  return {
    customerId: c.customerId,
    referenceCustomerId: c.referenceCustomerId,
    emailAddress: c.emailAddress,
    phoneNumber: c.phoneNumber,
    givenName: c.givenName,
    familyName: c.familyName,
  };
}

/** A merchant wrapped by its kind (reference): every sandbox merchant is a service-provider merchant. */
export function merchantBody(m: Merchant) {
  return {
    ServiceProviderMerchant: {
      merchantId: m.merchantId,
      marketplaceId: m.marketplaceId,
      status: m.status,
      businessProfile: {
        businessName: m.name,
        ...m.profile,
        taxCountry: m.taxCountry,
        tradingCountry: m.tradingCountry,
        contactEmailAddress: m.contactEmailAddress,
      },
      publicKey: m.publicKey,
      bankAccounts: m.bankAccounts.map((a) => ({
        bankAccountId: a.bankAccountId,
        accountName: a.accountName,
        bankName: a.bankName,
        identifier: { AuBankAccountIdentifier: { bsb: a.bsb, accountNumber: a.accountNumber } },
        currency: a.currency,
        createdAt: a.createdAt,
      })),
      primaryBankAccountId: m.primaryBankAccountId,
      slug: m.slug,
      industryCode: m.industryCode,
      surchargeRateBps: m.surchargeRateBps,
    },
  };
}

export function blockedCardBody(block: CardBlock) {
  const { fingerprint: _card, ...fields } = block;
  return fields;
}
