/** Legacy answer shapes of legacy-api.md section 4, for asserting on what legacy clients receive. */
import { z } from 'zod';

const ts = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const obj = z.record(z.string(), z.unknown());

export const legacyError = z.strictObject({
  statusCode: z.int(),
  errorCode: z.string(),
  message: z.string(),
  detail: z.string(),
  tracer: z.string().min(1),
  errorTypeDescription: z.string().min(1),
});

export const legacyOrder = z.strictObject({
  merchantOrderId: z.string().startsWith('ordr_'),
  merchantId: z.string().startsWith('mcht_'),
  platformId: z.string().startsWith('mktp_').nullable(),
  marketplaceId: z.string().startsWith('mktp_').nullable(),
  internalOrderId: z.string(),
  amount: z.int(),
  currency: z.string(),
  // legacy-api.md section 4: null where the current order has nothing, amountPaid from the status
  paymentTypeAmounts: z.null(),
  amountPaid: z.int(),
  customerEmail: z.string().nullable(),
  phoneNo: z.string().nullable(),
  type: z.enum(['online', 'paybylink']),
  description: z.string().nullable(),
  items: z
    .array(
      z.strictObject({
        description: z.string(),
        quantity: z.number(),
        amount: z.int(),
        currency: z.string(),
        sku: z.string().optional(),
        imageUrl: z.string().optional(),
      }),
    )
    .nullable(),
  invoiceLineItems: z.null(),
  taxIncluded: z.null(),
  taxIncludedAmountOverride: z.null(),
  discount: z.strictObject({ amount: z.int() }).nullable(),
  shipping: obj.nullable(),
  billing: z
    .strictObject({
      address: obj.optional(),
      name: z.string().optional(),
      email: z.string().optional(),
      phone: z.string().optional(),
    })
    .nullable(),
  metadata: obj.nullable(),
  status: z.enum(['created', 'paid', 'cancelled']),
  request3DSOnPayment: z.null(),
  emailCustomerReceipt: z.null(),
  createdAt: ts,
  updatedAt: ts,
});

export const legacyPay = z.strictObject({
  transactionId: z.string().startsWith('tran_'),
  transactionStatus: z.enum(['paid', 'not_captured']),
  amount: z.int(),
  currency: z.string(),
  surchargeAmount: z.int(),
  type: z.enum(['paycard', 'payto']),
});

export const legacyThreeDS = z.strictObject({
  paymentToken: z.string().startsWith('ptkn_'),
  paymentActionRequired: z.strictObject({
    threeDSAuthorisationId: z.string().startsWith('3ds_'),
    redirectURL: z.url(),
  }),
});

export const legacyTransaction = z.strictObject({
  _id: z.string().startsWith('tran_'),
  merchantId: z.string().startsWith('mcht_'),
  marketplaceId: z.string().startsWith('mktp_').nullable(),
  customerId: z.string().startsWith('cust_').nullable(),
  merchantOrderId: z.string().startsWith('ordr_'),
  internalOrderId: z.string(),
  amount: z.int(),
  currency: z.string(),
  surchargeAmount: z.int(),
  refundedAmount: z.int(),
  fee: z.int(),
  status: z.enum(['paid', 'not_captured', 'partially_refunded', 'refunded', 'cancelled']),
  transactionPayType: z.union([
    z.strictObject({
      payCardId: z.string().regex(/^card_[A-Za-z0-9_-]+$/, 'card_ and the opaque part of the transaction id'),
    }),
    z.strictObject({ bankTransferId: z.string().startsWith('tran_') }),
  ]),
  statusBeforeDispute: z.null(),
  lastChargeId: z.null(),
  payoutId: z.null(),
  refunds: z.array(z.strictObject({ refundId: z.string().startsWith('rfnd_'), amount: z.int(), createdAt: ts })),
  transfers: z.array(obj),
  metadata: obj.nullable(),
  paidOn: z.string().nullable(),
  createdAt: ts,
  updatedAt: ts,
});

export const legacyCustomers = z.strictObject({
  customers: z.array(
    z.strictObject({
      customerId: z.string().startsWith('cust_'),
      internalCustomerId: z.string().nullable(),
      email: z.string(),
      phoneno: z.string().nullable(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
    }),
  ),
});

export const legacySources = z.strictObject({
  paymentSources: z.array(
    z.strictObject({
      paymentSourceId: z.string().startsWith('psrc_'),
      customerId: z.string(),
      merchantId: z.string(),
      type: z.enum(['card', 'payto']),
      accountHint: z.string(),
      createdAt: ts,
    }),
  ),
});

export const legacyMerchant = z.strictObject({
  merchantId: z.string().startsWith('mcht_'),
  platformId: z.string().nullable(),
  status: z.enum(['Pending', 'Active']),
  businessName: z.string(),
  timeZone: z.string().nullable(),
  businessType: z.string().nullable(),
  companyType: z.string().nullable(),
  website: z.string().nullable(),
  supportSite: z.string().nullable(),
  industry: z.string().nullable(),
  publicKey: z.string(),
  bankAccounts: z.array(
    z.strictObject({
      bankAccountId: z.string().startsWith('bank_'),
      accountName: z.string(),
      bankName: z.string().nullable(),
      routingNumber: z.string().regex(/^\d{3}-\d{3}$/),
      accountNumber: z.string(),
      currency: z.string(),
      createdAt: ts,
    }),
  ),
  primaryBankAccountId: z.string().nullable(),
});

export const legacySavedCardToken = z.strictObject({
  paymentTokenId: z.string().startsWith('ptkn_'),
  payCardId: z.string().regex(/^card_[A-Za-z0-9_-]+$/),
});
