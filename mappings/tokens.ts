import { z } from 'zod';
import { idOf } from '../src/contract/zod-helpers.js';
import { defineMapping } from '../src/translate/define.js';
import { closed, flatCurrency, flatMoney, money } from '../src/translate/shape.js';
import { legacyMoney } from './shapes.js';

export const savedCardToken = defineMapping({
  route: 'L19',
  description: 'Pay with a saved card: a CardPaymentSourceId token request (paymentAmount -> amount); answered {paymentToken, amount, currency}.',
  legacy: 'POST /payments/saved-card',
  current: 'POST /tokens',
  body: z.object({
    paymentSourceId: idOf('paymentSource'),
    paymentAmount: legacyMoney(1),
    cardCvc: z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits').optional(),
  }),
  request: { wrap: 'CardPaymentSourceId', shape: { paymentAmount: money('amount') } },
  response: {
    at: 'CardToken',
    shape: closed({ paymentToken: 'paymentTokenId', amount: flatMoney('amount'), currency: flatCurrency('amount') }),
  },
});
