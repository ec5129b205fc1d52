/** Store records in the legacy generation's shapes (legacy-api.md section 4), rendered natively. */
import { payCardIdOf } from '../../contract/ids.js';
import type { Customer, Merchant, Order, PaymentSource, Transaction } from '../model.js';
import type { Store } from '../store.js';

/** Shipping as the earlier generation named it: `phone` (the store keeps the current `phoneNumber`). */
function legacyShipping({ phoneNumber, ...rest }: NonNullable<Order['shipping']>) {
  return { ...rest, ...(phoneNumber !== undefined ? { phone: phoneNumber } : {}) };
}

export function legacyOrder(order: Order) {
  const billing = order.billing;
  return {
    merchantOrderId: order.orderId,
    merchantId: order.merchantId,
    platformId: order.marketplaceId,
    marketplaceId: order.marketplaceId,
    internalOrderId: order.referenceOrderId,
    amount: order.amount.minorCurrencyUnits,
    currency: order.amount.currency,
    // legacy-api.md section 4: nothing for these in the sandbox's orders, amountPaid from the status
    paymentTypeAmounts: null,
    amountPaid: order.status === 'paid' ? order.amount.minorCurrencyUnits : 0,
    customerEmail: order.customerEmailAddress,
    phoneNo: order.customerPhoneNumber,
    type: order.orderType,
    description: order.description,
    items:
      order.items?.map((item) => ({
        description: item.description,
        quantity: item.quantity,
        amount: item.amount.minorCurrencyUnits,
        currency: item.amount.currency,
        ...(item.sku !== undefined ? { sku: item.sku } : {}),
        ...(item.imageUrl !== undefined ? { imageUrl: item.imageUrl } : {}),
      })) ?? null,
    invoiceLineItems: null,
    taxIncluded: null,
    taxIncludedAmountOverride: null,
    discount: order.discountAmount === null ? null : { amount: order.discountAmount },
    shipping: order.shipping && legacyShipping(order.shipping),
    billing: billing && {
      ...(billing.address !== undefined ? { address: billing.address } : {}),
      ...(billing.name !== undefined ? { name: billing.name } : {}),
      ...(billing.emailAddress !== undefined ? { email: billing.emailAddress } : {}),
      ...(billing.phoneNumber !== undefined ? { phone: billing.phoneNumber } : {}),
    },
    metadata: order.metadata,
    status: order.status,
    request3DSOnPayment: null,
    emailCustomerReceipt: null,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

/** Legacy `status` keeps the current words (legacy-api.md section 4). */
const legacyStatus = (tx: Transaction) => tx.status;

export function legacyTransaction(store: Store, tx: Transaction) {
  const order = store.orders.get(tx.orderId)!;
  return {
    _id: tx.transactionId,
    merchantId: tx.merchantId,
    marketplaceId: order.marketplaceId,
    customerId: tx.customerId,
    merchantOrderId: tx.orderId,
    internalOrderId: order.referenceOrderId,
    amount: tx.amount,
    currency: tx.currency,
    surchargeAmount: tx.surchargeAmount,
    refundedAmount: tx.refundedAmount,
    fee: tx.serviceFees.totalAmount,
    status: legacyStatus(tx),
    // an object named by the kind of payment: the .NET SDK deserialises it into a class
    transactionPayType: tx.payPlanId
      ? { PayPlanId: tx.payPlanId }
      : tx.method === 'card'
        ? { payCardId: payCardIdOf(tx.transactionId) }
        : { bankTransferId: tx.transactionId },
    statusBeforeDispute: null,
    lastChargeId: null,
    payoutId: null,
    refunds: tx.refundIds.map((refundId) => {
      const refund = store.refunds.get(refundId)!;
      return { refundId, amount: refund.amount, createdAt: refund.createdAt };
    }),
    transfers: tx.transfers,
    metadata: order.metadata,
    paidOn: tx.paidOn,
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
  };
}

/** The pay answer: `type` is `paycard` for a card paid in full, `payto` for PayTo. */
export function legacyPayResult(tx: Transaction) {
  return {
    transactionId: tx.transactionId,
    transactionStatus: legacyStatus(tx),
    amount: tx.amount,
    currency: tx.currency,
    surchargeAmount: tx.surchargeAmount,
    type: tx.payPlanId ? 'payplan' : tx.method === 'card' ? 'paycard' : 'payto',
  };
}

/** L16's answer: the removed card source (legacy reference); what the sandbox does not keep is null. */
export function legacyRemovedCard(source: PaymentSource) {
  return {
    cardPaymentSourceId: source.paymentSourceId,
    customerId: source.customerId,
    customerDelegateUserId: null,
    brand: null,
    funding: null,
    last4: source.card?.last4 ?? null,
    cardBin: null,
    expMonth: null,
    expYear: null,
    country: null,
    isDeleted: true,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
  };
}

export function legacyCustomer(c: Customer) {
  return {
    customerId: c.customerId,
    internalCustomerId: c.referenceCustomerId,
    email: c.emailAddress,
    phoneno: c.phoneNumber,
    firstName: c.givenName,
    lastName: c.familyName,
  };
}

export function legacySource(s: PaymentSource) {
  return {
    paymentSourceId: s.paymentSourceId,
    customerId: s.customerId,
    merchantId: s.merchantId,
    type: s.type,
    accountHint: s.accountIdentifierHint,
    createdAt: s.createdAt,
  };
}

/** The legacy merchant (L22, L23, L25): the platform's view of a sub-merchant, its profile flat. */
export function legacyMerchant(m: Merchant) {
  return {
    merchantId: m.merchantId,
    platformId: m.marketplaceId,
    status: m.status,
    businessName: m.name,
    ...m.profile,
    publicKey: m.publicKey,
    bankAccounts: m.bankAccounts.map((a) => ({
      bankAccountId: a.bankAccountId,
      accountName: a.accountName,
      bankName: a.bankName,
      routingNumber: a.bsb,
      accountNumber: a.accountNumber,
      currency: a.currency,
      createdAt: a.createdAt,
    })),
    primaryBankAccountId: m.primaryBankAccountId,
  };
}
