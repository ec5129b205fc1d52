import { z } from 'zod';
import { idOf } from '../src/contract/zod-helpers.js';
import { defineMapping, toHeader } from '../src/translate/define.js';
import { closed, from } from '../src/translate/shape.js';

export const payPlanMaximum = defineMapping({
  route: 'L20',
  description: 'Ask how much a customer may borrow with a pay plan (public key): customerId leaves the body for Customer-Id; answered {maxLoanAmount, currency, summary}.',
  legacy: 'POST /payments/plan/eligibility-max',
  current: 'POST /payplans/max',
  body: z.object({ customerId: idOf('customer'), payPlanVariant: z.enum(['Fortnightly4', 'Fortnightly6', 'Monthly12']) }),
  request: { move: { customerId: toHeader('Customer-Id', 'customer') } },
  response: {
    shape: closed({
      maxLoanAmount: from('maxLoanAmount.minorCurrencyUnits'),
      currency: from('maxLoanAmount.currency'),
      summary: 'summary',
    }),
  },
  readOnly: true,
});
