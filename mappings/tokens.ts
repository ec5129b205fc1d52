import { z } from 'zod';
import { blankable, idOf } from '../src/contract/zod-helpers.js';
import { payCardIdOf } from '../src/contract/ids.js';
import { cardTokenResponse } from '../src/contract/current-responses.js';
import { checkAnswer, defineMapping, readAnswer, LegacyAnswer, stringAt, toHeader } from '../src/translate/define.js';
import { money } from '../src/translate/shape.js';
import { legacyMoney } from './shapes.js';

export const savedCardToken = defineMapping({
  route: 'L19',
  description: 'A payment token from a saved card: {paymentAmount, cardPaymentSourceId, cardCvc?, customerId?} becomes a CardPaymentSourceId token request (cardPaymentSourceId -> paymentSourceId, paymentAmount -> amount, customerId -> Customer-Id; threeDsSessionId dropped and reported); answered HTTP 201 {paymentTokenId, payCardId}, as the WooCommerce plugin reads the status and the legacy reference names the fields.',
  legacy: 'POST /payments/saved-card',
  current: 'POST /tokens',
  body: z.object({
    cardPaymentSourceId: idOf('paymentSource'),
    paymentAmount: legacyMoney(1),
    cardCvc: blankable(z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits')),
    customerId: blankable(idOf('customer')),
  }),
  request: {
    wrap: 'CardPaymentSourceId',
    move: { customerId: toHeader('Customer-Id', 'customer') },
    shape: { cardPaymentSourceId: 'paymentSourceId', paymentAmount: money('amount') },
  },
  response: readAnswer([cardTokenResponse], ({ CardToken: { paymentTokenId } }) =>
    new LegacyAnswer(201, { paymentTokenId, payCardId: payCardIdOf(paymentTokenId) }),
  ),
  answers: { 201: z.object({ paymentTokenId: z.string().startsWith('ptkn_'), payCardId: z.string().startsWith('card_').describe('card_ and the opaque part of paymentTokenId') }) },
  // a token has nothing to read back: the answer the mapping gives for the token the client got
  writeCheck: checkAnswer(({ answer, body }) => ({
    status: 200,
    body: { CardToken: { paymentTokenId: stringAt(answer, 'paymentTokenId'), amount: { minorCurrencyUnits: (body as { paymentAmount?: { amount?: number } }).paymentAmount?.amount, currency: stringAt(body, 'paymentAmount.currency') } } },
  })),
});
