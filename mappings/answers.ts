/**
 * The legacy answers of legacy-api.md section 4 as zod schemas: what each mapping gives a legacy
 * client, by HTTP status. They document the routes (the legacy OpenAPI document is built from them)
 * and are checked against the gateway's real answers in test/translate/openapi.test.ts.
 */
import { z } from 'zod';
import { legacyProfileFields } from '../src/contract/current-responses.js';

const timestamp = z.string().describe('ISO 8601 UTC with milliseconds');
const id = (prefix: string) => z.string().startsWith(prefix).describe(`an id with prefix ${prefix}`);
const obj = z.record(z.string(), z.unknown());
const address = z
  .object({
    line1: z.string(),
    line2: z.string(),
    city: z.string(),
    state: z.string(),
    postalCode: z.string(),
    country: z.string(),
  })
  .partial();

/** The legacy error object (section 5), every status but success. */
export const LEGACY_ERROR = z
  .object({
    statusCode: z.int(),
    errorCode: z.string().describe('machine-readable code: one of the error table, or a code the current API gave'),
    message: z.string().describe('a readable sentence'),
    detail: z.string().describe('what was wrong: the field, header or id'),
    tracer: z.string().describe("the request id the gateway logged, or the upstream's tracer"),
    errorTypeDescription: z
      .string()
      .describe("the upstream's sentence for the kind of error, or the gateway's for the status class"),
  })
  .describe('A legacy error (legacy-api.md section 5).');

export const ORDER_ANSWER = z
  .object({
    merchantOrderId: id('ordr_'),
    merchantId: id('mcht_'),
    platformId: id('mktp_').nullable(),
    marketplaceId: id('mktp_').nullable(),
    internalOrderId: z.string(),
    amount: z.int().describe('minor units'),
    currency: z.string(),
    paymentTypeAmounts: z.null().describe('the current order has nothing for it'),
    amountPaid: z.int().describe('amount when status is paid, else 0'),
    customerEmail: z.string().nullable(),
    phoneNo: z.string().nullable(),
    type: z.enum(['online', 'paybylink']),
    description: z.string().nullable(),
    items: z
      .array(
        z.object({
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
    discount: z.object({ amount: z.int() }).nullable(),
    shipping: z
      .object({
        amount: z.int().optional(),
        address: address.optional(),
        name: z.string().optional(),
        phone: z.string().optional(),
        carrier: z.string().optional(),
        trackingNumber: z.string().optional(),
      })
      .nullable(),
    billing: z
      .object({
        address: address.optional(),
        name: z.string().optional(),
        email: z.string().optional(),
        phone: z.string().optional(),
      })
      .nullable(),
    metadata: obj.nullable().describe('the order metadata, byte for byte'),
    status: z.enum(['created', 'paid', 'cancelled']),
    request3DSOnPayment: z.null(),
    emailCustomerReceipt: z.null(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .describe(
    'The legacy order (L1-L3, L11, L12, L30): every field of the legacy reference, null where the current order has nothing.',
  );

export const PAY_ANSWER = z
  .object({
    transactionId: id('tran_'),
    transactionStatus: z.string().describe('the current status (an older authorised is not_captured)'),
    amount: z.int(),
    currency: z.string(),
    surchargeAmount: z.int(),
    type: z.enum(['paycard', 'payto', 'payplan']),
  })
  .describe('A payment done (L4, L5).');

export const THREE_DS_ANSWER = z
  .object({
    paymentToken: id('ptkn_').describe("the request's payment token"),
    paymentActionRequired: z.object({
      threeDSAuthorisationId: z.string(),
      redirectURL: z.string().describe('the 3DS page the shopper opens'),
    }),
  })
  .describe('A 3DS challenge (HTTP 403): open redirectURL, then pay again with paymentActionRequired.');

export const TRANSACTION_ANSWER = z
  .object({
    _id: id('tran_'),
    merchantId: id('mcht_'),
    marketplaceId: id('mktp_').nullable(),
    customerId: id('cust_').nullable().optional(),
    merchantOrderId: id('ordr_'),
    internalOrderId: z.string().optional(),
    amount: z.int(),
    currency: z.string(),
    surchargeAmount: z.int().optional(),
    refundedAmount: z.int().optional(),
    fee: z.int().optional().describe('serviceFees.totalAmount'),
    status: z.string().describe('paid, not_captured, partially_refunded, refunded, cancelled, ...'),
    transactionPayType: z
      .union([
        z.object({ payCardId: z.string() }),
        z.object({ bankTransferId: z.string() }),
        z.object({ PayPlanId: z.string() }),
      ])
      .nullable(),
    statusBeforeDispute: z.null(),
    lastChargeId: z.null(),
    payoutId: z.null(),
    refunds: z.array(z.object({ refundId: id('rfnd_'), amount: z.int(), createdAt: timestamp })),
    transfers: z.array(obj).optional(),
    metadata: obj.nullable().optional(),
    paidOn: z.string().nullable().optional(),
    createdAt: timestamp.optional(),
    updatedAt: timestamp.optional(),
  })
  .describe('The legacy transaction (L6, L9, L10, L17).');

/** L26 and L27 (legacy reference): the transaction's transfers still in effect, totals summed. */
export const TRANSFER_ANSWER = z
  .object({
    transactionTransferId: z.null().describe('no current equivalent'),
    transactionId: id('tran_'),
    transactionMerchant: id('mcht_'),
    transactionAmount: z.int().describe('minor units'),
    currency: z.string(),
    totalTransferred: z.int(),
    totalSurcharged: z.literal(0).describe('the platform fee figure is not shown by the current API'),
    totalLevied: z.int(),
    transfers: z.array(
      z.object({
        transferredToMerchantId: id('mcht_'),
        idempotencyKey: z.null(),
        createdAt: timestamp,
        transferred: z.int(),
        surcharged: z.literal(0),
        levy: z.int(),
        metadata: z.null(),
      }),
    ),
  })
  .describe('A transaction transfer summary (L26, L27).');

export const MERCHANT_ANSWER = z
  .object({
    merchantId: id('mcht_'),
    platformId: id('mktp_').nullable(),
    status: z.enum(['Pending', 'Active']).describe('Pending until the sub-merchant has a payout account'),
    // the current profile's fields, flat
    ...legacyProfileFields.shape,
    publicKey: z.string(),
    bankAccounts: z.array(
      z.object({
        bankAccountId: id('bank_'),
        accountName: z.string(),
        bankName: z.string().nullable(),
        routingNumber: z.string().describe('the BSB, as 123-456'),
        accountNumber: z.string(),
        currency: z.string(),
        createdAt: timestamp,
      }),
    ),
    primaryBankAccountId: z.string().nullable(),
  })
  .describe('A sub-merchant of a platform (L22, L23, L25).');

/** The answers of every route with a body at status 200 alone. */
export const ok = (schema: z.ZodType) => ({ 200: schema }) as const;
