import { z } from 'zod';
import { blankable, idOf } from '../src/contract/zod-helpers.js';
import { defineMapping, LegacyAnswer } from '../src/translate/define.js';
import { closed, compileShape, flatCurrency, flatMoney, money, type Obj } from '../src/translate/shape.js';
import { legacyMoney } from './shapes.js';

const cardToken = compileShape(
  closed({ paymentTokenId: 'paymentTokenId', amount: flatMoney('amount'), currency: flatCurrency('amount') }),
);

export const savedCardToken = defineMapping({
  route: 'L19',
  description: 'A payment token from a saved card: {cardPaymentSourceId, paymentAmount} becomes a CardPaymentSourceId token request (cardPaymentSourceId -> paymentSourceId, paymentAmount -> amount); answered HTTP 201 {paymentTokenId, amount, currency}, as the WooCommerce plugin reads it.',
  legacy: 'POST /payments/saved-card',
  current: 'POST /tokens',
  body: z.object({
    cardPaymentSourceId: idOf('paymentSource'),
    paymentAmount: legacyMoney(1),
    cardCvc: blankable(z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits')),
  }),
  request: { wrap: 'CardPaymentSourceId', shape: { cardPaymentSourceId: 'paymentSourceId', paymentAmount: money('amount') } },
  response: { map: (body: { CardToken: Obj }) => new LegacyAnswer(201, cardToken.backward(body.CardToken)) },
  answers: { 201: z.object({ paymentTokenId: z.string().startsWith('ptkn_'), amount: z.int(), currency: z.string() }) },
});
