/**
 * What the mappings read of current answers, as tolerant read schemas (design.md: a tolerant reader at
 * the edge): unknown keys kept and ignored, optional what a published form may leave out, defaults for
 * lists a form may omit. The translator parses each answer once with them before a map sees it; each
 * key named here must be one some answer of the operation has (checked at load).
 */
import { z } from 'zod';

const num = z.number();
const moneyRead = z.looseObject({ minorCurrencyUnits: num, currency: z.string() });

/** A transaction detail as the seed, the reference and the sandbox answer it: the purchase's ids and figures required. */
export const transactionRead = z.looseObject({
  purchaseDetails: z.looseObject({
    transactionId: z.string(),
    orderId: z.string(),
    merchantId: z.string(),
    marketplaceId: z.string().nullish(),
    referenceOrderId: z.string().nullish(),
    amount: moneyRead,
    surchargeAmount: num.default(0),
    refundedAmount: num.default(0),
    payType: z.string().nullish(),
    payPlanId: z.string().optional(),
    orderMetadata: z.record(z.string(), z.unknown()).nullish(),
    status: z.string(),
    refundIds: z.array(z.string()).default([]),
    paidOn: z.string().nullish(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  }),
  paymentMethod: z.looseObject({ paymentMethodType: z.string().optional() }).nullish(),
  serviceFees: z.looseObject({ totalAmount: num.optional() }).nullish(),
  customerDetails: z.looseObject({ customerId: z.string().optional() }).nullish(),
  timelines: z
    .array(
      z.looseObject({ eventType: z.string(), eventTime: z.string(), amount: num, identifier: z.string().nullish() }),
    )
    .default([]),
  transfers: z
    .array(
      z.looseObject({
        transferId: z.string(),
        amount: num,
        destinationMerchantId: z.string(),
        status: z.string(),
        createdAt: z.string(),
        levy: num.nullish(),
      }),
    )
    .default([]),
});
export type TransactionRead = z.output<typeof transactionRead>;

export const transactionListRead = z.array(transactionRead);

/** What a refund's answer is read for: the refund ids (the new one is the refund's) and their amounts. */
export const refundRead = z.looseObject({
  purchaseDetails: z.looseObject({ refundIds: z.array(z.string()) }),
  timelines: transactionRead.shape.timelines,
});

/** What a transfer's answer is read for (L26, L27): the transaction's figures and its transfers. */
export const transferRead = z.looseObject({
  purchaseDetails: z.looseObject({ transactionId: z.string(), merchantId: z.string(), amount: moneyRead }),
  transfers: transactionRead.shape.transfers,
});

/** Figures of a payment, wherever a form puts them. */
const payFigures = {
  transactionStatus: z.string().optional(),
  amount: num.optional(),
  currency: z.string().optional(),
  surchargeAmount: num.optional(),
  payType: z.string().optional(),
  type: z.string().optional(),
};

/**
 * A payment done, in any published form or mix of them: the sandbox's (current-api.md's flat fields in
 * `PayOrderComplete`), the guide's (`amount`, `currency`, `type`) and the reference's (`transactionDetails`).
 */
export const payCompleteRead = z.looseObject({
  PayOrderComplete: z.looseObject({
    transactionId: z.string(),
    ...payFigures,
    transactionDetails: z
      .looseObject({
        purchaseDetails: z
          .looseObject({
            amount: moneyRead.optional(),
            surchargeAmount: num.optional(),
            payType: z.string().optional(),
            status: z.string().optional(),
          })
          .optional(),
      })
      .optional(),
  }),
});
/** current-api.md's flat card answer. */
const { type: _guideName, ...flatFigures } = payFigures;
export const flatPayRead = z.looseObject({ transactionId: z.string(), ...flatFigures });
export const threeDSRead = z.looseObject({
  ThreeDSAuthorisationRequired: z.looseObject({ threeDSAuthorisationId: z.string(), redirectUrl: z.string() }),
});

const text = z.string().nullish();
/**
 * An order: what every published form carries (current-api.md's order fields, and the state the
 * reference's and the decisions' orders have) is needed; what a form may leave out is null in the
 * legacy answer (legacy-api.md section 4), never missing.
 */
const orderFields = z.looseObject({
  orderId: z.string(),
  merchantId: z.string(),
  marketplaceId: text,
  referenceOrderId: z.string(),
  amount: moneyRead,
  status: z.string(),
  orderType: text,
  description: text,
  customerEmailAddress: text,
  customerPhoneNumber: text,
  items: z.array(z.record(z.string(), z.unknown())).nullish(),
  discountAmount: num.nullish(),
  shipping: z.record(z.string(), z.unknown()).nullish(),
  billing: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** An order, wrapped in `OnlineOrder` (Get, Create) or bare (the reference's Update and Cancel). */
export const wrappedOrderRead = z.looseObject({ OnlineOrder: z.looseObject({ order: orderFields }) });
export const bareOrderRead = orderFields;
export const payByLinkRead = z.looseObject({
  PayByLinkOrder: z.looseObject({ order: orderFields, token: z.string(), magicLink: z.string() }),
});
