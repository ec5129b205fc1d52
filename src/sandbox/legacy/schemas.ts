/**
 * Legacy request bodies as the earlier generation accepted them (legacy-api.md section 4). Unknown
 * fields are ignored, as the earlier generation did; written here natively, not derived from mappings/.
 */
import { z } from 'zod';
import {
  address, amountInt, countryCode, currencyCode, email, idOf, longText, metadata, phone, shortText,
} from '../../contract/zod-helpers.js';

const legacyMoney = (min: number) => z.object({ amount: amountInt(min), currency: currencyCode });
const legacyAddress = address.strip();

export const orderBody = z.object({
  internalOrderId: z.string().min(1).max(255),
  paymentAmount: legacyMoney(1),
  description: longText,
  customerEmail: email.optional(),
  phoneNo: phone.optional(),
  items: z
    .array(
      z.object({
        description: shortText,
        quantity: z.int().min(1).max(100_000),
        amount: amountInt(0),
        currency: currencyCode,
        sku: shortText.optional(),
        imageUrl: z.string().max(2048).optional(),
      }),
    )
    .max(500)
    .optional(),
  discount: z.object({ amount: amountInt(0) }).optional(),
  shipping: z
    .object({ amount: amountInt(0).optional(), address: legacyAddress.optional(), name: shortText.optional() })
    .optional(),
  billing: z.object({
    address: legacyAddress.optional(),
    name: shortText.optional(),
    email: email.optional(),
    phone: phone.optional(),
  }),
  metadata: metadata.optional(),
});

export const payBody = z.object({
  paymentToken: idOf('paymentToken'),
  request3DS: z.boolean().optional(),
  authoriseOnly: z.boolean().optional(),
  paymentActionRequired: z
    .object({ threeDSAuthorisationId: idOf('threeDS'), redirectURL: z.string().max(2048).optional() })
    .optional(),
});

export const refundBody = z.object({ transactionId: idOf('transaction'), refundAmount: legacyMoney(1) });
export const captureBody = z.object({ captureAmount: legacyMoney(1) });
export const internalOrderIdBody = z.object({ internalOrderId: z.string().min(1).max(255) });
export const transferBody = z.object({
  amount: amountInt(1),
  currency: currencyCode.optional(),
  destinationMerchantId: idOf('merchant'),
});

export const consumerBody = z.object({
  internalCustomerId: shortText.optional(),
  email,
  phoneno: phone.optional(),
  firstName: shortText.optional(),
  middleName: shortText.optional(),
  lastName: shortText.optional(),
  address: legacyAddress.optional(),
});
export const organisationBody = z.object({
  internalCustomerId: shortText.optional(),
  businessName: z.string().min(1).max(255),
  email,
  phoneno: phone.optional(),
  abn: z.string().regex(/^\d{11}$/, 'expected an 11-digit ABN').optional(),
});
export const customerQuery = z.object({ email: z.string().max(320).optional() });

export const savedCardBody = z.object({
  paymentSourceId: idOf('paymentSource'),
  paymentAmount: legacyMoney(1),
  cardCvc: z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits').optional(),
});
export const eligibilityBody = z.object({
  customerId: idOf('customer'),
  payPlanVariant: z.enum(['Fortnightly4', 'Fortnightly6', 'Monthly12']),
});

export const onboardingBody = z.object({
  slug: z.string().regex(/^[a-z0-9-]{2,64}$/, 'expected 2-64 lower-case letters, digits or dashes'),
  businessName: z.string().min(1).max(255),
  contactEmail: email,
  taxCountry: countryCode,
  tradingCountry: countryCode,
});
export const businessProfileBody = z
  .object({
    businessName: z.string().min(1).max(255).optional(),
    contactEmail: email.optional(),
    tradingCountry: countryCode.optional(),
  })
  .refine((v) => v.businessName !== undefined || v.contactEmail !== undefined || v.tradingCountry !== undefined, {
    message: 'expected at least one field to update',
  });
export const bankAccountBody = z.object({
  bsb: z.string().regex(/^\d{3}-?\d{3}$/, 'expected a six-digit BSB'),
  accountNumber: z.string().regex(/^\d{4,10}$/, 'expected 4-10 digits'),
  accountName: z.string().min(1).max(140),
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
