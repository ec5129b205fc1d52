import { z } from 'zod';
import { blankable, idOf, legacyPayPlanVariant, legacyVariantName } from '../src/contract/zod-helpers.js';
import { payPlanMaxResponse } from '../src/contract/current-responses.js';
import { defineMapping, readAnswer, toHeader } from '../src/translate/define.js';
import { mapped, type Obj } from '../src/translate/shape.js';
import { ok } from './answers.js';

/** What a legacy L20 leaves out and the current call requires: the merchant's currency (current-api-decisions.md). */
const PAY_PLAN_CURRENCY = 'AUD';

/** The pay plan maximum: `maxLoanAmount` and `currency` from the current answer's `amount` (the reference). */
const maximum = readAnswer([payPlanMaxResponse], ({ amount, summary }) => ({
  maxLoanAmount: amount.minorCurrencyUnits,
  currency: amount.currency,
  summary,
}));

export const payPlanMaximum = defineMapping({
  route: 'L20',
  tier: 2,
  description:
    "Ask how much a customer may borrow with a pay plan (public key): customerId leaves the body for Customer-Id; the variant (PayPlan_Fortnight_25_25_25_25, or an object naming it) is sent lower-cased, and the currency the current call requires is the merchant's (AUD); answered {maxLoanAmount, currency, summary}.",
  legacy: 'POST /payments/plan/eligibility-max',
  current: 'POST /payplans/max',
  // the variant is the upstream's business value: its shape is checked here, its name by the upstream
  body: z.object({ customerId: idOf('customer'), payPlanVariant: blankable(legacyPayPlanVariant) }),
  request: {
    move: { customerId: toHeader('Customer-Id', 'customer') },
    shape: { payPlanVariant: mapped((variant) => legacyVariantName(variant as string | Obj).toLowerCase()) },
    add: { currency: PAY_PLAN_CURRENCY },
  },
  response: maximum,
  answers: ok(z.object({ maxLoanAmount: z.int().describe('minor units'), currency: z.string(), summary: z.unknown() })),
  readOnly: true,
});
