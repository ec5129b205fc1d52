/** Shapes and checks several mapping files share: the legacy order, transaction, merchant and money. */
import { z } from 'zod';
import {
  legacyProfileFields,
  type merchantResponse,
  type transactionDetail,
} from '../src/contract/current-responses.js';
import { payCardIdOf } from '../src/contract/ids.js';
import { amountInt, currencyCode } from '../src/contract/zod-helpers.js';
import { PaybridgeError } from '../src/errors.js';
import {
  closed,
  computed,
  flatCurrency,
  flatMoney,
  from,
  rename,
  unwrap,
  values,
  verbatim,
  type Obj,
  type ShapeSpec,
} from '../src/translate/shape.js';

/** Legacy request money: `{amount: integer minor units, currency}`. */
export const legacyMoney = (min: number) => z.object({ amount: amountInt(min), currency: currencyCode });

/** An order item: legacy flat `amount` + `currency` <-> current `amount {minorCurrencyUnits, currency}`. */
export const ORDER_ITEM: ShapeSpec = { amount: flatMoney('amount'), currency: flatCurrency('amount') };

/** Billing contact: legacy `email`/`phone` <-> current `emailAddress`/`phoneNumber`. */
export const BILLING: ShapeSpec = { email: 'emailAddress', phone: 'phoneNumber' };

/** Shipping: legacy `phone` <-> current `phoneNumber`; carrier and trackingNumber as sent. */
export const SHIPPING: ShapeSpec = { phone: 'phoneNumber' };

/** The legacy order answer (L1-L3, L11, L12) built from the current `OnlineOrder.order`. */
export const LEGACY_ORDER = closed({
  merchantOrderId: 'orderId',
  merchantId: 'merchantId',
  platformId: 'marketplaceId',
  // the .NET SDK reads marketplaceId (legacy-api.md section 0)
  marketplaceId: 'marketplaceId',
  internalOrderId: 'referenceOrderId',
  amount: flatMoney('amount'),
  currency: flatCurrency('amount'),
  // legacy-api.md section 4: the current order has nothing for these (null); amountPaid from the status
  paymentTypeAmounts: computed(() => null),
  amountPaid: computed((order) =>
    order.status === 'paid'
      ? ((order.amount as { minorCurrencyUnits?: unknown } | undefined)?.minorCurrencyUnits ?? 0)
      : 0,
  ),
  customerEmail: 'customerEmailAddress',
  phoneNo: 'customerPhoneNumber',
  type: 'orderType',
  description: 'description',
  items: rename('items', ORDER_ITEM),
  invoiceLineItems: computed(() => null),
  taxIncluded: computed(() => null),
  taxIncludedAmountOverride: computed(() => null),
  discount: unwrap('discountAmount', 'amount'),
  shipping: rename('shipping', SHIPPING),
  billing: rename('billing', BILLING),
  metadata: verbatim(),
  status: 'status',
  request3DSOnPayment: computed(() => null),
  emailCustomerReceipt: computed(() => null),
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
});

interface Timeline {
  eventType: string;
  eventTime: string;
  amount: number;
  identifier: string | null;
}

/**
 * The payment named by the key of its kind, as the .NET SDK deserialises it
 * (`{bankTransferId, payCardId, payDeferralId, PayPlanId}`; a string makes it throw).
 */
function payTypeOf(detail: Obj): Record<string, unknown> | null {
  const id = (detail.purchaseDetails as Obj | undefined)?.transactionId ?? null;
  const kind = (detail.paymentMethod as Obj | undefined)?.paymentMethodType;
  if ((detail.purchaseDetails as Obj | undefined)?.payType === 'PayPlan')
    return { PayPlanId: (detail.purchaseDetails as Obj).payPlanId ?? id };
  if (kind === 'PayTo') return { bankTransferId: id };
  if (kind === 'Card') return { payCardId: typeof id === 'string' ? payCardIdOf(id) : id };
  return null;
}

/** The legacy transaction (L6, L9, L10, L17, L26, L27) built from a current transaction detail. */
export const LEGACY_TRANSACTION = closed({
  _id: from('purchaseDetails.transactionId'),
  merchantId: from('purchaseDetails.merchantId'),
  marketplaceId: from('purchaseDetails.marketplaceId', (v) => v ?? null),
  customerId: from('customerDetails.customerId'),
  merchantOrderId: from('purchaseDetails.orderId'),
  internalOrderId: from('purchaseDetails.referenceOrderId'),
  amount: from('purchaseDetails.amount.minorCurrencyUnits'),
  currency: from('purchaseDetails.amount.currency'),
  surchargeAmount: from('purchaseDetails.surchargeAmount'),
  refundedAmount: from('purchaseDetails.refundedAmount'),
  fee: from('serviceFees.totalAmount'),
  status: from('purchaseDetails.status', values({ authorised: 'not_captured' })),
  transactionPayType: computed(payTypeOf),
  // observed names the current API has nothing for
  statusBeforeDispute: computed(() => null),
  lastChargeId: computed(() => null),
  payoutId: computed(() => null),
  // refunds are the PaymentRefunded timeline entries, oldest first (legacy-api.md section 4)
  refunds: computed((detail) =>
    ((detail.timelines ?? []) as Timeline[])
      .filter((t) => t.eventType === 'PaymentRefunded')
      .map((t) => ({ refundId: t.identifier, amount: t.amount, createdAt: t.eventTime })),
  ),
  transfers: from('transfers'),
  metadata: from('purchaseDetails.orderMetadata'),
  paidOn: from('purchaseDetails.paidOn'),
  createdAt: from('purchaseDetails.createdAt'),
  updatedAt: from('purchaseDetails.updatedAt'),
});

/** The legacy merchant (L22, L23, L25) from the current one inside its kind wrapper: the marketplace called a platform, the profile flat. */
export const LEGACY_MERCHANT = closed({
  merchantId: 'merchantId',
  platformId: 'marketplaceId',
  status: 'status',
  ...Object.fromEntries(
    Object.keys(legacyProfileFields.shape).map((field) => [field, from(`businessProfile.${field}`)]),
  ),
  publicKey: 'publicKey',
  // the legacy reference's account fields: the BSB is the routing number
  bankAccounts: from('bankAccounts', (accounts) =>
    (accounts as CurrentBankAccount[]).map((a) => ({
      bankAccountId: a.bankAccountId,
      accountName: a.accountName,
      bankName: a.bankName,
      routingNumber: a.identifier.AuBankAccountIdentifier.bsb,
      accountNumber: a.identifier.AuBankAccountIdentifier.accountNumber,
      currency: a.currency,
      createdAt: a.createdAt,
    })),
  ),
  primaryBankAccountId: 'primaryBankAccountId',
});

type CurrentBankAccount = z.output<typeof merchantResponse>['ServiceProviderMerchant']['bankAccounts'][number];

/**
 * A preflight check: the currency of the legacy money field must be the transaction's, or nothing is
 * sent (400 currency_mismatch). A field without a currency passes.
 */
export function sameCurrency<L>(field: string, currencyOf: (legacyBody: L) => string | undefined) {
  return (detail: z.output<typeof transactionDetail>, legacyBody: L): void => {
    const given = currencyOf(legacyBody);
    const actual = detail.purchaseDetails.amount.currency;
    if (given !== undefined && given !== actual)
      throw new PaybridgeError(
        'currency_mismatch',
        `${field}: ${String(given)} differs from the transaction currency ${actual}`,
      );
  };
}
