import { z } from 'zod';
import { idOf } from '../src/contract/zod-helpers.js';
import { defineMapping, toHeader } from '../src/translate/define.js';
import { closed, from } from '../src/translate/shape.js';
import { ok } from './answers.js';

export const payPlanMaximum = defineMapping({
  route: 'L20',
  description: 'Ask how much a customer may borrow with a pay plan (public key): customerId leaves the body for Customer-Id; answered {maxLoanAmount, currency, summary}.',
  legacy: 'POST /payments/plan/eligibility-max',
  current: 'POST /payplans/max',
  // the variant is the upstream's business value: its shape is checked here, its name by the upstream
  body: z.object({ customerId: idOf('customer'), payPlanVariant: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a pay plan variant name') }),
  request: { move: { customerId: toHeader('Customer-Id', 'customer') } },
  response: {
    shape: closed({
      maxLoanAmount: from('maxLoanAmount.minorCurrencyUnits'),
      currency: from('maxLoanAmount.currency'),
      summary: 'summary',
    }),
  },
  answers: ok(z.object({ maxLoanAmount: z.int().describe('minor units'), currency: z.string(), summary: z.unknown() })),
  readOnly: true,
});
