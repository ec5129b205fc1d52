/**
 * Legacy request bodies as the earlier generation accepted them (legacy-api.md section 4). Unknown
 * fields are ignored, as the earlier generation did; written here natively, not derived from mappings/.
 */
import { z } from 'zod';
import {
  CONSUMER_REQUIRED,
  consumerFields,
  eitherName,
  ORGANISATION_REQUIRED,
  organisationFields,
} from '../../contract/legacy-customers.js';
import {
  amountInt,
  blankable,
  countryCode,
  isoCurrency as currencyCode,
  email,
  idOf,
  legacyCount,
  legacyPayPlanVariant,
  legacyReference,
  longText,
  metadata,
  phone,
  shortText,
} from '../../contract/zod-helpers.js';

const legacyMoney = (min: number) => z.object({ amount: amountInt(min), currency: currencyCode });
/** The earlier generation took optional fields as absent when null or "" (legacy-api.md section 0). */
const legacyAddress = z.object({
  line1: blankable(shortText),
  line2: blankable(shortText),
  city: blankable(shortText),
  state: blankable(shortText),
  postalCode: blankable(z.string().max(16)),
  country: blankable(countryCode),
});

export const orderBody = z.object({
  internalOrderId: legacyReference,
  paymentAmount: legacyMoney(1),
  description: longText,
  customerEmail: blankable(email),
  phoneNo: blankable(phone),
  items: blankable(
    z
      .array(
        z.object({
          description: shortText,
          quantity: legacyCount(1, 100_000),
          amount: amountInt(0),
          currency: currencyCode,
          sku: blankable(shortText),
          imageUrl: blankable(z.string().max(2048)),
        }),
      )
      .max(500),
  ),
  discount: blankable(z.object({ amount: amountInt(0) })),
  shipping: blankable(
    z.object({
      amount: blankable(amountInt(0)),
      address: blankable(legacyAddress),
      name: blankable(shortText),
      phone: blankable(phone),
      carrier: blankable(shortText),
      trackingNumber: blankable(shortText),
    }),
  ),
  billing: z.object({
    address: blankable(legacyAddress),
    name: blankable(shortText),
    email: blankable(email),
    phone: blankable(phone),
  }),
  metadata: blankable(metadata),
  orderType: blankable(z.string().max(64)),
});

export const invoiceBody = z.object({
  orderRequest: orderBody,
  sendSms: blankable(z.boolean()),
  sendEmail: blankable(z.boolean()),
  SendEmail: blankable(z.boolean()),
});

export const payBody = z.object({
  paymentToken: idOf('paymentToken'),
  request3DS: blankable(z.boolean()),
  authoriseOnly: blankable(z.boolean()),
  returnURL: blankable(z.string().max(2048)),
  offSession: blankable(z.boolean()),
  cardStatement: blankable(z.object({ name: blankable(shortText), city: blankable(shortText) })),
  paymentActionRequired: blankable(
    z.object({ threeDSAuthorisationId: idOf('threeDS'), redirectURL: blankable(z.string().max(2048)) }),
  ),
});

export const refundBody = z.object({ transactionId: idOf('transaction'), refundAmount: legacyMoney(1) });
/** An integer in minor units (the .NET SDK's Int64), or a money object. */
export const captureBody = z.object({ captureAmount: z.union([amountInt(1), legacyMoney(1)]).optional() });
export const internalOrderIdBody = z.object({ internalOrderId: legacyReference });

/** L13: the legacy reference's names and the older ones (the reference's win); isVerified is taken and not kept. */
export const consumerBody = eitherName(
  z.object({ ...consumerFields, address: blankable(legacyAddress), isVerified: blankable(z.boolean()) }),
  CONSUMER_REQUIRED,
);
/** L18: the legacy reference's names and the older ones; the two booleans are taken and not kept. */
export const organisationBody = eitherName(
  z.object({
    ...organisationFields,
    organisationKyced: blankable(z.boolean()),
    organisationCreditChecked: blankable(z.boolean()),
  }),
  ORGANISATION_REQUIRED,
);
/** L28: the shop plugins' customer, already in current names. */
export const pluginCustomerBody = z.object({
  internalCustomerId: blankable(legacyReference),
  emailAddress: email,
  givenName: blankable(shortText),
  familyName: blankable(shortText),
  phoneNumber: blankable(phone),
});
export const signInBody = z.object({ customerId: idOf('customer') });
export const customerQuery = z.object({ email: z.string().max(320).optional() });

export const savedCardBody = z.object({
  cardPaymentSourceId: idOf('paymentSource'),
  paymentAmount: legacyMoney(1),
  cardCvc: blankable(z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits')),
  customerId: blankable(idOf('customer')),
  threeDsSessionId: blankable(z.string().max(255)),
});
export const eligibilityBody = z.object({
  customerId: idOf('customer'),
  payPlanVariant: blankable(legacyPayPlanVariant),
});

export const transactionsQuery = z.object({ merchantOrderId: idOf('order').optional() });
export const sandboxCardTokenBody = z.object({
  cardNumber: z.string().regex(/^\d{12,19}$/, 'expected 12-19 digits'),
  amount: z.object({ minorCurrencyUnits: amountInt(1), currency: currencyCode }).optional(),
});
export const sandboxCardSourceBody = z.object({
  customerId: idOf('customer'),
  cardNumber: z.string().regex(/^\d{12,19}$/, 'expected 12-19 digits'),
});
