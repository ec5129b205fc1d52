import { z } from 'zod';
import { blankable, idOf } from '../src/contract/zod-helpers.js';
import { payCardIdOf } from '../src/contract/ids.js';
import { savedSourceTokenResponse } from '../src/contract/current-responses.js';
import { checkAnswer, defineMapping, readAnswer, LegacyAnswer, stringAt, toHeader } from '../src/translate/define.js';
import { money, moved } from '../src/translate/shape.js';
import { legacyMoney } from './shapes.js';

export const savedCardToken = defineMapping({
  route: 'L19',
  description:
    'A payment token from a saved card: {paymentAmount, cardPaymentSourceId, cardCvc?, customerId?} becomes CreateSavedPaymentSourceToken {paymentSourceId, amount}, as the official current plugin sends it (customerId -> Customer-Id; cardCvc has no place in it and is taken and not sent; threeDsSessionId dropped and reported); answered HTTP 201 {paymentTokenId, payCardId}, as the WooCommerce plugin reads the status and the legacy reference names the fields.',
  legacy: 'POST /payments/saved-card',
  current: 'POST /tokens',
  body: z.object({
    cardPaymentSourceId: idOf('paymentSource'),
    paymentAmount: legacyMoney(1),
    cardCvc: blankable(z.string().regex(/^\d{3,4}$/, 'expected 3 or 4 digits')),
    customerId: blankable(idOf('customer')),
  }),
  request: {
    wrap: 'CreateSavedPaymentSourceToken',
    move: { customerId: toHeader('Customer-Id', 'customer') },
    shape: { cardPaymentSourceId: 'paymentSourceId', paymentAmount: money('amount'), cardCvc: moved() },
  },
  response: readAnswer(
    [savedSourceTokenResponse],
    ({ SavedPaymentSourceToken: { paymentTokenId } }) =>
      new LegacyAnswer(201, { paymentTokenId, payCardId: payCardIdOf(paymentTokenId) }),
  ),
  answers: {
    201: z.object({
      paymentTokenId: z.string().startsWith('ptkn_'),
      payCardId: z.string().startsWith('card_').describe('card_ and the opaque part of paymentTokenId'),
    }),
  },
  // a token has nothing to read back: the answer the mapping gives for the token the client got
  writeCheck: checkAnswer(({ answer }) => ({
    status: 200,
    body: { SavedPaymentSourceToken: { paymentTokenId: stringAt(answer, 'paymentTokenId') } },
  })),
});
