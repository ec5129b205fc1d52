/**
 * Request bodies and query strings of the current API (current-api.md and current-api-decisions.md).
 * Strict: a field the current API does not know is a 400 naming it.
 */
import { z } from 'zod';
import {
  actionWrapper,
  address,
  amountInt,
  isoCurrency,
  isoDate,
  email,
  idOf,
  longText,
  metadata,
  phone,
  shortText,
} from './zod-helpers.js';

// merchants and their people have a file of their own; importers find them here too
export * from './current-merchant-requests.js';

/**
 * An optional text the official plugin may send empty (a virtual product's shipping address, a shop
 * without a phone number): `""` is taken as absent (current-api-decisions.md, "What the official current
 * client sends and reads"); anything else is checked as `schema`.
 */
const blank = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const pluginAddress = z.strictObject({
  line1: blank(shortText),
  line2: blank(shortText),
  city: blank(shortText),
  state: blank(shortText),
  postalCode: blank(z.string().max(16)),
  country: blank(address.shape.country.unwrap()),
});

const money = z.strictObject({ minorCurrencyUnits: amountInt(0), currency: isoCurrency });
const positiveMoney = z.strictObject({ minorCurrencyUnits: amountInt(1), currency: isoCurrency });
/** PayTo runs on Australia's New Payments Platform: Australian dollars only (current-api.md, D-PT-1). */
const payToMoney = z.strictObject({
  minorCurrencyUnits: amountInt(1),
  currency: z.literal('AUD', 'expected AUD: PayTo is available only within Australia'),
});

const orderItem = z.strictObject({
  amount: money,
  description: shortText,
  // the reference: a number that may be a decimal amount such as 1.5
  quantity: z.number().positive().max(100_000),
  sku: shortText.optional(),
  imageUrl: z.string().max(2048).optional(),
});

const onlineOrderFields = z.strictObject({
  referenceOrderId: z.string().min(1).max(255),
  amount: positiveMoney,
  customerEmailAddress: email.optional(),
  customerPhoneNumber: blank(phone),
  description: longText.optional(),
  items: z.array(orderItem).max(500).optional(),
  discountAmount: amountInt(0).optional(),
  shipping: z
    .strictObject({
      amount: amountInt(0).optional(),
      address: pluginAddress.optional(),
      name: shortText.optional(),
      phoneNumber: blank(phone),
      carrier: shortText.optional(),
      trackingNumber: shortText.optional(),
    })
    .optional(),
  billing: z
    .strictObject({
      address: pluginAddress.optional(),
      name: shortText.optional(),
      emailAddress: blank(email),
      phoneNumber: blank(phone),
    })
    .optional(),
  metadata: metadata.optional(),
});
export type OnlineOrderFields = z.output<typeof onlineOrderFields>;

const payByLinkOrderFields = onlineOrderFields.extend({
  sendSms: z.boolean().optional(),
  sendEmail: z.boolean().optional(),
});

export type PayByLinkOrderFields = z.output<typeof payByLinkOrderFields>;

/** CreatePayByLink is the service's name for a pay-by-link order (send-invoice guide; not CreatePayByLinkOrder). */
export const createOrderRequest = actionWrapper({
  CreateOnlineOrder: onlineOrderFields,
  CreatePayByLink: payByLinkOrderFields,
});

export const updateOrderRequest = actionWrapper({
  UpdateReferenceOrderId: z.strictObject({ referenceOrderId: z.string().min(1).max(255) }),
});

export const payOrderRequest = actionWrapper({
  PayByCard: z.strictObject({
    paymentTokenId: idOf('paymentToken'),
    request3DS: z.boolean().optional(),
    authoriseOnly: z.boolean().optional(),
    returnUrl: z.string().min(1).max(2048).optional(),
    offSession: z.boolean().optional(),
    cardStatement: z.strictObject({ name: shortText.optional(), city: shortText.optional() }).optional(),
  }),
  PayByPayTo: z.strictObject({ paymentTokenId: idOf('paymentToken') }),
  // any token that came without card data in this checkout: a saved source's, a pay plan's (client)
  PayByPaymentToken: z.strictObject({ paymentTokenId: idOf('paymentToken') }),
  // the reference's shape: the challenge's id one level down, authoriseOnly repeated (optional here);
  // the official plugin echoes the whole ThreeDSAuthorisationRequired object, redirectUrl included (client)
  Confirm3DSComplete: z.strictObject({
    paymentTokenId: idOf('paymentToken'),
    threeDSResponse: z.looseObject({ threeDSAuthorisationId: idOf('threeDS') }),
    authoriseOnly: z.boolean().optional(),
  }),
});

export const transactionActionRequest = actionWrapper({
  CreateRefund: z.strictObject({ refundAmount: amountInt(1) }),
  CaptureFunds: z.strictObject({ amount: amountInt(1).optional() }),
  CancelAuthorisation: z.strictObject({}),
  // the transaction-transfers guide: the platform fee charged to the destination, a levy deducted from it
  TransferFunds: z.strictObject({
    destinationMerchantId: idOf('merchant'),
    transferAmount: amountInt(1),
    surchargeFee: z.boolean().optional(),
    levy: amountInt(0).nullable().optional(),
  }),
  ReverseFundsTransfer: z.strictObject({ transferId: idOf('transfer') }),
});

const ALIAS_TYPES = ['Phone', 'Email', 'ABN', 'ACN', 'ARBN', 'ARSN', 'OrgId'] as const;

/** What an alias value must look like for its type (docs/decisions.md). */
const ALIAS_VALUE_RULES: Record<(typeof ALIAS_TYPES)[number], { pattern: RegExp; describe: string }> = {
  // E.164 (`+61412345678`) or the NPP PayID form with a dash after the country code (`+61-412345678`)
  Phone: {
    pattern: /^\+(?=(?:\d-?){7,15}$)[1-9]\d{0,2}-?\d+$/,
    describe: 'an international phone number (+ and 7-15 digits, a dash after the country code allowed)',
  },
  Email: { pattern: /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/, describe: 'an e-mail address' },
  ABN: { pattern: /^\d{11}$/, describe: '11 digits' },
  ACN: { pattern: /^\d{9}$/, describe: '9 digits' },
  ARBN: { pattern: /^\d{9}$/, describe: '9 digits' },
  ARSN: { pattern: /^\d{9}$/, describe: '9 digits' },
  OrgId: { pattern: /^[A-Za-z0-9-]{2,64}$/, describe: '2-64 letters, digits or dashes' },
};

export const agreementRequest = z.strictObject({
  customerName: z.string().min(1).max(140),
  customerAccIdentifier: actionWrapper({
    Alias: z
      .strictObject({ aliasType: z.enum(ALIAS_TYPES), value: z.string().min(3).max(256) })
      .superRefine((alias, ctx) => {
        const rule = ALIAS_VALUE_RULES[alias.aliasType];
        if (!rule.pattern.test(alias.value))
          ctx.addIssue({
            code: 'custom',
            path: ['value'],
            message: `expected ${rule.describe} for aliasType ${alias.aliasType}`,
          });
      }),
    Bban: z.strictObject({
      value: z.string().regex(/^\d{3}-?\d{3}-\d{4,10}$/, 'expected <bsb>-<account_number>'),
    }),
  }),
  terms: actionWrapper({
    AgreementRequestTermsOneOff: z.strictObject({
      amount: z.strictObject({
        amount: amountInt(1),
        currency: z.literal('AUD', 'expected AUD: PayTo is available only within Australia'),
      }),
    }),
    AgreementRequestTermsOpen: z.strictObject({}),
  }),
  purpose: z.string().min(1).max(140),
});
export type AgreementRequest = z.output<typeof agreementRequest>;

export const agreementQuery = z.strictObject({ token: z.string().min(1).max(128) });

export const createTokenRequest = actionWrapper({
  CreatePayToToken: z.strictObject({ amount: payToMoney, agreementToken: z.string().min(1).max(128) }),
  // the public card capture interface: raw card data with the public key (docs/decisions.md)
  CreateCardToken: z.strictObject({
    cardNumber: z.string().regex(/^\d{12,19}$/, 'expected 12-19 digits'),
    expiryMonth: z.int().min(1).max(12),
    expiryYear: z.int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits'),
    amount: positiveMoney.optional(),
  }),
  // a token from a saved source (client: the official plugin's generate_payment_token)
  CreateSavedPaymentSourceToken: z.strictObject({ paymentSourceId: idOf('paymentSource'), amount: positiveMoney }),
});

export const createSourceRequest = actionWrapper({
  CreateSavedPaymentSource: z.strictObject({
    sourceMethod: actionWrapper({ PayToMethod: z.strictObject({ agreementToken: z.string().min(1).max(128) }) }),
    usageScope: z.enum(['ScopeOrganisation', 'ScopeMerchant']).optional(),
  }),
});

/** Sign-in has its own endpoint, `POST /auth/signin` (reference: SignInCustomer). */
export const signInRequest = actionWrapper({
  SignInConsumer: z.strictObject({ customerId: idOf('customer') }),
  SignInDelegate: z.strictObject({
    customerDelegateId: z.string().regex(/^custd_[A-Za-z0-9_-]{1,64}$/, 'expected a custd_ id'),
  }),
  SignInDelegateByReferenceId: z.strictObject({ referenceCustomerId: z.string().min(1).max(255) }),
});

export const customerActionRequest = actionWrapper({
  KycCustomer: z.strictObject({
    // POST /customers/kyc names the customer here (or in Customer-Id); PATCH /customers/{id} on its path
    customerId: idOf('customer').optional(),
    dateOfBirth: isoDate,
    documentType: z.enum(['DriversLicence', 'Passport', 'MedicareCard']),
    documentNumber: z.string().regex(/^[A-Za-z0-9]{5,20}$/, 'expected 5-20 letters or digits'),
  }),
});

export const upsertCustomerRequest = actionWrapper({
  UpsertConsumerCustomer: z.strictObject({
    referenceCustomerId: shortText.optional(),
    emailAddress: email,
    phoneNumber: phone.optional(),
    givenName: shortText.optional(),
    middleName: shortText.optional(),
    familyName: shortText.optional(),
    // the reference's consumer upsert: no address; isVerified and metadata
    isVerified: z.boolean().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  // the official plugin's customer (client: april-customer.php): a shop's own user, names as the shop has them
  RegisterPluginConsumerCustomer: z.strictObject({
    referenceCustomerId: blank(shortText),
    givenName: blank(shortText),
    familyName: blank(shortText),
    emailAddress: email,
  }),
  UpsertOrganisationCustomer: z.strictObject({
    referenceCustomerId: shortText.optional(),
    businessName: z.string().min(1).max(255),
    emailAddress: email,
    phoneNumber: phone.optional(),
    abn: z
      .string()
      .regex(/^\d{11}$/, 'expected an 11-digit ABN')
      .optional(),
  }),
});

/** The pay plan variants, named as the current reference names them (CalculatePayPlanMaxLoan); the first is the default. */
export const PAY_PLAN_VARIANTS = {
  payplan_fortnight_25_25_25_25: { instalments: 4, intervalDays: 14 },
  payplan_4_weekly_payments: { instalments: 4, intervalDays: 7 },
  payplan_12_monthly_payments: { instalments: 12, intervalDays: 30 },
  payplan_30_days_0_100: { instalments: 1, intervalDays: 30 },
} as const;
export const DEFAULT_PAY_PLAN_VARIANT = 'payplan_fortnight_25_25_25_25';
export type PayPlanVariant = keyof typeof PAY_PLAN_VARIANTS;
export const payPlanVariant = z.enum(Object.keys(PAY_PLAN_VARIANTS) as [PayPlanVariant, ...PayPlanVariant[]]);

export const payPlanOfferRequest = z.strictObject({
  customerId: idOf('customer'),
  amount: positiveMoney,
  initialPayment: amountInt(0),
  payPlanVariant,
});
/** Calculate Pay Plan Max Loan (reference): the currency is required, the variant optional. */
export const payPlanMaxRequest = z.strictObject({ currency: isoCurrency, payPlanVariant: payPlanVariant.optional() });

export const surchargeRequest = actionWrapper({
  CalculateSurcharge: z.strictObject({ amount: positiveMoney, paymentMethodType: z.enum(['Card', 'PayTo']) }),
});

export const blockedCardUpdateRequest = actionWrapper({ UnblockCard: z.strictObject({}) });

/** Sandbox-only test instruments (current-api-decisions.md, "Sandbox test instruments"). */
const cardNumber = z.string().regex(/^\d{12,19}$/, 'expected 12-19 digits');
export const sandboxCardTokenRequest = z.strictObject({
  cardNumber,
  amount: positiveMoney.optional(),
  /** The checkout's pay-later choice: a pay plan of this variant pays the order (a customer's credential). */
  payPlan: z.strictObject({ payPlanVariant: payPlanVariant.default(DEFAULT_PAY_PLAN_VARIANT) }).optional(),
});
export const sandboxCardSourceRequest = z.strictObject({ cardNumber });

// Query strings: a parameter may repeat (rule 3), so list filters accept a string or an array.
const repeatable = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item).max(50)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);
/** Every list's parameters (reference): limit 1-500 (default 20), page from 1, sort fields with `-` for descending. */
const pageParams = {
  limit: z.coerce.number().int().min(1).max(500).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  sort: z
    .string()
    .regex(
      /^-?[A-Za-z][A-Za-z0-9.]*(,-?[A-Za-z][A-Za-z0-9.]*)*$/,
      'expected field names separated by commas, - before a field for descending',
    )
    .max(200)
    .optional(),
};

/** Query Transactions: current-api.md's orderId, and the reference's filters. */
export const transactionQuery = z.strictObject({
  orderId: repeatable(idOf('order')).optional(),
  customerId: repeatable(idOf('customer')).optional(),
  merchantId: repeatable(idOf('merchant')).optional(),
  status: repeatable(
    z.enum([
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
  ).optional(),
  amount: z.coerce.number().int().min(0).max(100_000_000_000).optional(),
  createdAfter: z.iso.datetime().optional(),
  createdBefore: z.iso.datetime().optional(),
  ...pageParams,
});
/** Query Customers (reference): by e-mail address, merchant, customer, name, and when created. */
export const customerQuery = z.strictObject({
  emailAddress: z.string().max(320).optional(),
  merchantId: repeatable(idOf('merchant')).optional(),
  customerId: repeatable(idOf('customer')).optional(),
  name: z.string().min(1).max(255).optional(),
  createdAfter: z.iso.datetime().optional(),
  createdBefore: z.iso.datetime().optional(),
  ...pageParams,
});
export const sourceQuery = z.strictObject({ customerId: repeatable(idOf('customer')).optional(), ...pageParams });
export const payPlanQuery = z.strictObject({
  merchantId: repeatable(idOf('merchant')).optional(),
  customerId: repeatable(idOf('customer')).optional(),
  ...pageParams,
});
export const pageQuery = z.strictObject(pageParams);
export const merchantQuery = z.strictObject({
  merchantId: repeatable(idOf('merchant')).optional(),
  slug: z.string().max(64).optional(),
  ...pageParams,
});
export const beneficialOwnerQuery = z.strictObject({
  merchantId: repeatable(idOf('merchant')).optional(),
  ...pageParams,
});
export const settlementQuery = z.strictObject({
  merchantId: repeatable(idOf('merchant')).optional(),
  payoutDate: isoDate.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  ...pageParams,
});
