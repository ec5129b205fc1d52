/**
 * Response bodies of the current API. Used by tests and by the sandbox's self-check, never on a hot
 * path: the gateway does not validate what the upstream sent beyond what a mapping needs.
 */
import { z } from 'zod';
import { hasIdForm, type IdKind } from './ids.js';

const id = (kind: IdKind) => z.string().refine((v) => hasIdForm(kind, v), `expected a ${kind} id`);
const timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'expected ISO 8601 UTC with milliseconds');
const money = z.strictObject({ minorCurrencyUnits: z.int(), currency: z.string() });
const jsonObject = z.record(z.string(), z.unknown());

export const errorResponse = z.strictObject({
  statusCode: z.int(),
  errorCode: z.string(),
  message: z.string(),
  tracer: z.uuid(),
  detail: z.string(),
  errorTypeDescription: z.string(),
});

/** The order object: bare as Update Order and Cancel Order answer it (reference), wrapped by Get and Create. */
export const bareOrder = z.strictObject({
  orderId: id('order'),
  merchantId: id('merchant'),
  marketplaceId: id('marketplace').nullable(),
  orderType: z.enum(['online', 'paybylink']),
  referenceOrderId: z.string(),
  amount: money,
  description: z.string().nullable(),
  customerEmailAddress: z.string().nullable(),
  customerPhoneNumber: z.string().nullable(),
  items: z.array(jsonObject).nullable(),
  discountAmount: z.int().nullable(),
  shipping: jsonObject.nullable(),
  billing: jsonObject.nullable(),
  metadata: jsonObject.nullable(),
  status: z.enum(['created', 'paid', 'cancelled']),
  createdAt: timestamp,
  updatedAt: timestamp,
  customerName: z.string().nullable(),
  surcharge: z.strictObject({
    surchargeOptions: z.array(jsonObject).nullable(),
    surchargePaidAmount: z.int().nullable(),
  }),
  orderTypeDetails: jsonObject.nullable(),
});

export const orderResponse = z.strictObject({ OnlineOrder: z.strictObject({ order: bareOrder }) });

export const timelineEntry = z.strictObject({
  eventType: z.string(),
  eventTime: timestamp,
  amount: z.int(),
  identifier: z.string().nullable(),
});

export const transactionDetail = z.strictObject({
  purchaseDetails: z.strictObject({
    orderId: id('order'),
    merchantId: id('merchant'),
    marketplaceId: id('marketplace').nullable(),
    referenceOrderId: z.string(),
    amount: money,
    surchargeAmount: z.int(),
    refundedAmount: z.int(),
    merchantName: z.string(),
    transactionId: id('transaction'),
    orderType: z.string(),
    payType: z.enum(['PayInFull', 'PayPlan']),
    /** A pay-plan payment's plan (payType PayPlan). */
    payPlanId: id('payPlan').optional(),
    description: z.string().nullable(),
    orderMetadata: jsonObject.nullable(),
    status: z.enum([
      'accepted',
      'paid',
      'refunded',
      'partially_refunded',
      'pending',
      'failed',
      'cancelled',
      'disputed',
      'not_captured',
      'incomplete',
    ]),
    refundIds: z.array(id('refund')),
    disputeId: z.string().nullable(),
    disputeIds: z.array(z.string()),
    paidOn: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  paymentMethod: z.strictObject({
    paymentMethodType: z.enum(['Card', 'PayTo']),
    accountHint: z.string(),
    paymentStatus: z.enum(['Authorised', 'Settled', 'Cancelled']),
    paymentFailure: z.null(),
  }),
  serviceFees: z.strictObject({
    variableAmount: z.int(),
    fixedAmount: z.int(),
    taxAmount: z.int(),
    totalAmount: z.int(),
  }),
  customerDetails: z
    .strictObject({
      customerId: id('customer'),
      emailAddress: z.string(),
      givenName: z.string().nullable(),
      familyName: z.string().nullable(),
    })
    .nullable(),
  timelines: z.array(timelineEntry),
  transfers: z.array(
    z.strictObject({
      transferId: id('transfer'),
      amount: z.int(),
      destinationMerchantId: id('merchant'),
      status: z.enum(['completed', 'reversed']),
      createdAt: timestamp,
      reversedAt: timestamp.nullable(),
      surchargeFee: z.boolean(),
      levy: z.int().nullable(),
    }),
  ),
});

/** A list answer (reference): a bare JSON array of the items, in the order asked. */
const list = <T extends z.ZodType>(item: T) => z.array(item);

export const transactionList = list(transactionDetail);

/** current-api.md's flat card answer (no longer the sandbox's: the official plugin takes only PayOrderComplete). */
export const flatCardPayResponse = z.strictObject({
  transactionId: id('transaction'),
  transactionStatus: z.enum(['paid', 'not_captured']),
  amount: z.int(),
  currency: z.string(),
  /** The merchant's card surcharge (docs/decisions.md); 0 for most. */
  surchargeAmount: z.int(),
  payType: z.literal('payinfull'),
});

/**
 * The card pay answer as the sandbox gives it (current-api-decisions.md, client): current-api.md's flat
 * fields inside `PayOrderComplete`, `type` the same value as `payType`.
 */
export const cardPayResponse = z.strictObject({
  PayOrderComplete: flatCardPayResponse.extend({
    payType: z.enum(['payinfull', 'payplan']),
    type: z.enum(['payinfull', 'payplan']),
  }),
});

/** The payment-authorisation guide's pay answer: no transactionDetails. */
export const guidePayOrderComplete = z.strictObject({
  PayOrderComplete: z.strictObject({
    transactionId: id('transaction'),
    transactionStatus: z.string(),
    amount: z.int(),
    currency: z.string(),
    type: z.string(),
  }),
});

export const threeDSRequiredResponse = z.strictObject({
  ThreeDSAuthorisationRequired: z.strictObject({ threeDSAuthorisationId: id('threeDS'), redirectUrl: z.url() }),
});

/**
 * The pay answer as the reference's sample shows it for a card: wrapped in `PayOrderComplete`, the
 * figures under `transactionDetails.purchaseDetails` (current-api-decisions.md: the gateway reads it
 * beside the flat answer the sandbox gives). The sandbox's PayTo answer is this form with every figure.
 */
export const referencePayOrderComplete = z.object({
  PayOrderComplete: z.object({
    transactionId: id('transaction'),
    transactionStatus: z.string(),
    transactionDetails: z.object({
      purchaseDetails: z.object({ amount: money, surchargeAmount: z.int().optional(), payType: z.string().optional() }),
    }),
    amount: z.int().optional(),
    currency: z.string().optional(),
    surchargeAmount: z.int().optional(),
    payType: z.string().optional(),
  }),
});

export const payToPayResponse = z.strictObject({
  PayOrderComplete: z.strictObject({
    transactionId: id('transaction'),
    transactionStatus: z.literal('paid'),
    transactionDetails: transactionDetail,
    amount: z.int(),
    currency: z.string(),
    surchargeAmount: z.int(),
    payType: z.literal('payinfull'),
  }),
});

export const agreementCreated = z.strictObject({ token: z.string() });
export const agreementStatusResponse = z.strictObject({
  status: z.enum(['Pending', 'Active', 'Declined', 'Completed']),
});

export const payToTokenResponse = z.strictObject({
  PayToToken: z.strictObject({
    paymentTokenId: id('paymentToken'),
    amount: money,
    surchargeAmount: z.int(),
    agreementUid: z.string(),
    accountIdentifierHint: z.string().regex(/^\d{6}-\d{1,4}\*{4}$/),
  }),
});

/** A saved source's token (client: the official plugin reads SavedPaymentSourceToken.paymentTokenId). */
export const savedSourceTokenResponse = z.strictObject({
  SavedPaymentSourceToken: z.strictObject({ paymentTokenId: id('paymentToken') }),
});

export const cardTokenResponse = z.strictObject({
  CardToken: z.strictObject({ paymentTokenId: id('paymentToken'), amount: money }),
});

export const sandboxCardToken = z.strictObject({ paymentTokenId: id('paymentToken') });

const sourceMethod = z.union([
  z.strictObject({ PayToMethodResp: z.strictObject({ agreementUid: z.string(), accountIdentifierHint: z.string() }) }),
  z.strictObject({ CardMethodResp: z.strictObject({ cardHint: z.string() }) }),
]);
/** A source as Create Payment Source answers it (reference: with `legacyResp`). */
export const paymentSource = z.strictObject({
  paymentSourceId: id('paymentSource'),
  customerId: id('customer'),
  merchantId: id('merchant'),
  sourceMethod,
  usageScope: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  legacyResp: z.null(),
});
/** A source as Get Payment Source and the list answer it (reference: with `customerDelegateId`, no `legacyResp`). */
export const savedSource = z.strictObject({
  paymentSourceId: id('paymentSource'),
  customerId: id('customer'),
  merchantId: id('merchant'),
  customerDelegateId: z.string().nullable(),
  sourceMethod,
  usageScope: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const paymentSourceList = list(savedSource);

export const customerCreated = z.strictObject({ customerId: id('customer'), merchantId: id('merchant') });
/** RegisterPluginConsumerCustomer's answer (client: the official plugin reads customerId). */
export const pluginCustomerCreated = z.strictObject({ customerId: id('customer') });
export const signedIn = z.strictObject({
  customerId: id('customer'),
  customerDelegateId: z.string().startsWith('custd_').optional(),
  customToken: z.string().regex(/^[A-Za-z0-9_-]{8,256}$/),
});
export const customerList = list(
  z.strictObject({
    customerId: id('customer'),
    referenceCustomerId: z.string().nullable(),
    emailAddress: z.string(),
    phoneNumber: z.string().nullable(),
    givenName: z.string().nullable(),
    familyName: z.string().nullable(),
  }),
);

export const payPlanMaxResponse = z.strictObject({
  amount: money,
  summary: z.strictObject({ payPlanVariant: z.string(), instalments: z.int(), intervalDays: z.int() }),
});
export const payPlan = z.strictObject({
  payPlanId: id('payPlan'),
  merchantId: id('merchant'),
  customerId: id('customer'),
  amount: money,
  initialPayment: z.int(),
  payPlanVariant: z.string(),
  instalments: z.array(z.strictObject({ dueDate: z.string(), amount: z.int() })),
  status: z.enum(['offered', 'active']),
  orderId: id('order').optional(),
  createdAt: timestamp,
});
export const payPlanList = list(payPlan);

/** A merchant, wrapped by its kind (reference: `ServiceProviderMerchant`), as Create, Get, Update and Query answer it. */
const businessProfile = z.strictObject({
  businessName: z.string(),
  timeZone: z.string().nullable(),
  businessType: z.string().nullable(),
  companyType: z.string().nullable(),
  website: z.string().nullable(),
  supportSite: z.string().nullable(),
  industry: z.string().nullable(),
  taxCountry: z.string().nullable(),
  tradingCountry: z.string().nullable(),
  contactEmailAddress: z.string().nullable(),
});
/** The profile fields a legacy merchant (L22, L23, L25) shows flat, under the same names. */
export const legacyProfileFields = businessProfile.omit({
  taxCountry: true,
  tradingCountry: true,
  contactEmailAddress: true,
});

export const merchantResponse = z.strictObject({
  ServiceProviderMerchant: z.strictObject({
    merchantId: id('merchant'),
    marketplaceId: id('marketplace').nullable(),
    status: z.enum(['Pending', 'Active']),
    businessProfile,
    publicKey: z.string(),
    bankAccounts: z.array(
      z.strictObject({
        bankAccountId: id('bankAccount'),
        accountName: z.string(),
        bankName: z.string().nullable(),
        identifier: z.strictObject({
          AuBankAccountIdentifier: z.strictObject({ bsb: z.string(), accountNumber: z.string() }),
        }),
        currency: z.string(),
        createdAt: timestamp,
      }),
    ),
    primaryBankAccountId: id('bankAccount').nullable(),
    slug: z.string().nullable(),
    industryCode: z.string().nullable(),
    surchargeRateBps: z.int(),
  }),
});

export const merchantList = list(merchantResponse);
export const merchantFileResponse = z.strictObject({
  fileId: id('merchantFile'),
  merchantId: id('merchant'),
  fileName: z.string(),
  contentType: z.string(),
  purpose: z.string(),
  sizeBytes: z.int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: timestamp,
});
export const industryList = z.strictObject({
  items: z.array(z.strictObject({ industryCode: z.string(), name: z.string() })),
});
export const beneficialOwnerResponse = z.strictObject({
  beneficialOwnerId: id('beneficialOwner'),
  merchantId: id('merchant'),
  givenName: z.string(),
  familyName: z.string(),
  dateOfBirth: z.string(),
  ownershipPercentage: z.number(),
  emailAddress: z.string().nullable(),
  address: jsonObject.nullable(),
  title: z.string().nullable(),
  roles: z.array(z.enum(['Executive', 'Owner', 'Director'])),
  middleName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  verificationDocs: z.array(jsonObject),
  passport: jsonObject.nullable(),
  driverLicence: jsonObject.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const beneficialOwnerList = list(beneficialOwnerResponse);
export const kycResponse = z.strictObject({
  customerId: id('customer'),
  kycStatus: z.enum(['NotStarted', 'Verified', 'Rejected']),
  kycCheckedAt: timestamp.nullable(),
});
export const surchargeResponse = z.strictObject({
  amount: money,
  surchargeAmount: z.int(),
  totalAmount: money,
  surchargeRateBps: z.int(),
});
export const settlementEntryList = list(
  z.strictObject({
    settlementEntryId: z.string().startsWith('sent_'),
    merchantId: id('merchant'),
    transactionId: id('transaction'),
    type: z.enum([
      'payment',
      'surcharge',
      'fee',
      'refund',
      'transfer_out',
      'transfer_in',
      'transfer_reversal_out',
      'transfer_reversal_in',
    ]),
    amount: z.int(),
    currency: z.string(),
    occurredAt: timestamp,
    payoutDate: z.string(),
    reference: z.string().nullable(),
  }),
);
export const payoutSummary = z.strictObject({
  payoutId: z.string().startsWith('pout_'),
  merchantId: id('merchant'),
  payoutDate: z.string(),
  currency: z.string(),
  grossAmount: z.int(),
  feeAmount: z.int(),
  refundedAmount: z.int(),
  transferredAmount: z.int(),
  netAmount: z.int(),
  entryCount: z.int(),
  status: z.enum(['pending', 'paid']),
});
export const payoutSummaryList = list(payoutSummary);
export const settlementReport = list(payoutSummary.extend({ entries: settlementEntryList }));

export const blockedCard = z.strictObject({
  cardBlockId: id('cardBlock'),
  merchantId: id('merchant'),
  cardHint: z.string(),
  declines: z.int().min(1),
  status: z.enum(['blocked', 'unblocked']),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const blockedCardList = list(blockedCard);

export const payByLinkOrderResponse = z.strictObject({
  PayByLinkOrder: z.strictObject({
    order: orderResponse.shape.OnlineOrder.shape.order,
    token: z.string(),
    magicLink: z.url(),
  }),
});

/** Customer sign-in: a checkout auth token for the customer. */
export const customTokenResponse = z.strictObject({ customToken: z.string().regex(/^[A-Za-z0-9_-]{8,256}$/) });
