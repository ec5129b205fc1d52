import { z } from 'zod';
import { blankable, idOf, shortText } from '../src/contract/zod-helpers.js';
import { cardPayResponse, referencePayOrderComplete, threeDSRequiredResponse, transactionDetail } from '../src/contract/current-responses.js';
import { checkWrite, defineMapping, LegacyAnswer, readAnswer, stringAt, unlike, toHeader, toPath, type WriteOutcome } from '../src/translate/define.js';
import { moved, rename, values, type Obj } from '../src/translate/shape.js';
import { PAY_ANSWER, THREE_DS_ANSWER } from './answers.js';

/** The pay body as the deployed clients send it (legacy-api.md sections 0 and 4, L4/L5). */
const payBody = z.object({
  paymentToken: idOf('paymentToken'),
  request3DS: blankable(z.boolean()),
  authoriseOnly: blankable(z.boolean()),
  returnURL: blankable(z.string().max(2048)),
  offSession: blankable(z.boolean()),
  cardStatement: blankable(z.object({ name: blankable(shortText), city: blankable(shortText) })),
  // null or absent on the first call (the Magento plugin sends null)
  paymentActionRequired: blankable(
    z.object({ threeDSAuthorisationId: idOf('threeDS'), redirectURL: blankable(z.string().max(2048)) }),
  ),
});

/**
 * A first pay call is PayByCard; a call carrying the paymentActionRequired of a 3DS challenge is the
 * second call, Confirm3DSComplete.
 */
const payRequest = {
  wrap: (body: Obj) => (body.paymentActionRequired ? 'Confirm3DSComplete' : 'PayByCard'),
  shape: {
    PayByCard: { paymentToken: 'paymentTokenId', returnURL: 'returnUrl' },
    // the challenge is being completed (reference: the id under threeDSResponse, authoriseOnly repeated);
    // the first call's other options are not repeated
    Confirm3DSComplete: {
      paymentToken: 'paymentTokenId',
      paymentActionRequired: rename('threeDSResponse', { threeDSAuthorisationId: 'threeDSAuthorisationId', redirectURL: moved() }),
      request3DS: moved(),
      authoriseOnly: 'authoriseOnly',
      returnURL: moved(),
      offSession: moved(),
      cardStatement: moved(),
    },
  },
};

const legacyStatus = values({ authorised: 'not_captured' });
const legacyPayType = values({ payinfull: 'paycard', PayInFull: 'paycard', PayPlan: 'payplan' });

type FlatPayment = z.output<typeof cardPayResponse>;
type Payment = Omit<FlatPayment, 'transactionStatus' | 'payType' | 'surchargeAmount'> & { transactionStatus: string; payType?: string | undefined; surchargeAmount?: number | undefined };

/**
 * A card payment's fields from either form of the answer: flat (current-api.md, what the sandbox
 * answers) or wrapped in `PayOrderComplete` with the figures under `transactionDetails.purchaseDetails`
 * (the reference's sample); current-api-decisions.md: the gateway reads both.
 */
function payment(body: FlatPayment | z.output<typeof referencePayOrderComplete>): Payment {
  if (!('PayOrderComplete' in body)) return body;
  const complete = body.PayOrderComplete;
  const purchase = complete.transactionDetails.purchaseDetails;
  return {
    transactionId: complete.transactionId,
    transactionStatus: complete.transactionStatus,
    amount: complete.amount ?? purchase.amount.minorCurrencyUnits,
    currency: complete.currency ?? purchase.amount.currency,
    surchargeAmount: complete.surchargeAmount ?? purchase.surchargeAmount,
    payType: complete.payType ?? purchase.payType,
  };
}

/**
 * 3DS: the current 200 ThreeDSAuthorisationRequired is the legacy 403 paymentActionRequired. A payment:
 * the flat card answer in legacy names. The current card answer has no surchargeAmount; card payments
 * through PayByCard carry none, so the legacy field is 0 unless the current answer says otherwise.
 */
const payAnswer = readAnswer(
  [cardPayResponse, threeDSRequiredResponse, referencePayOrderComplete],
  (body, legacyBody: z.output<typeof payBody>) => {
    if ('ThreeDSAuthorisationRequired' in body) {
      const challenge = body.ThreeDSAuthorisationRequired;
      // paymentToken echoes the request's: the .NET SDK's PaymentActionResponse reads it
      return new LegacyAnswer(403, {
        paymentToken: legacyBody.paymentToken,
        paymentActionRequired: { threeDSAuthorisationId: challenge.threeDSAuthorisationId, redirectURL: challenge.redirectUrl },
      });
    }
    const paid = payment(body);
    return {
      transactionId: paid.transactionId,
      transactionStatus: legacyStatus(paid.transactionStatus),
      amount: paid.amount,
      currency: paid.currency,
      surchargeAmount: paid.surchargeAmount ?? 0,
      // the .NET SDK reads type: an answer that names no pay type (the reference's form may not) is a card paid in full
      type: legacyPayType(paid.payType ?? 'PayInFull'),
    };
  },
);

/** Shadow readback of a pay: the transaction it created, or the order when a 3DS challenge came back. */
const readPayment = ({ params, answer }: WriteOutcome) => {
  const transactionId = stringAt(answer, 'transactionId');
  return transactionId ? `/transactions/${transactionId}` : `/orders/${params.merchantOrderId}`;
};

type Detail = z.output<typeof transactionDetail>;

/**
 * Shadow's check of a pay: the transaction the legacy answer names, or, for a 3DS challenge (nothing
 * the current API shows yet), the challenge the legacy answer carries as the current 200 would have.
 */
const checkPay = checkWrite({
  state: ({ answer }) => {
    const transactionId = stringAt(answer, 'transactionId');
    return transactionId ? `/transactions/${transactionId}` : undefined;
  },
  reads: transactionDetail,
  answer: (state: Detail | undefined, { answer }) => {
    if (!state)
      return {
        status: 200,
        body: { ThreeDSAuthorisationRequired: { threeDSAuthorisationId: stringAt(answer, 'paymentActionRequired.threeDSAuthorisationId'), redirectUrl: stringAt(answer, 'paymentActionRequired.redirectURL') } },
      };
    const p = state.purchaseDetails;
    return {
      status: 200,
      body: { transactionId: p.transactionId, transactionStatus: p.status, amount: p.amount.minorCurrencyUnits, currency: p.amount.currency, surchargeAmount: p.surchargeAmount, payType: p.payType === 'PayInFull' ? 'payinfull' : p.payType },
    };
  },
  // authoriseOnly leaves the payment not captured; the order paid is the one on the path
  effect: (asked: { authoriseOnly?: boolean }, state, { params }) =>
    unlike({ status: [asked.authoriseOnly ? 'not_captured' : 'paid', state.purchaseDetails.status], orderId: [params.merchantOrderId, state.purchaseDetails.orderId] }),
  // a capture, cancel, refund or transfer since the pay
  raced: (state) => state.purchaseDetails.refundIds.length > 0 || state.transfers.length > 0 || !['paid', 'not_captured'].includes(state.purchaseDetails.status),
});

export const payOrder = defineMapping({
  route: 'L4',
  description: 'Pay an order with the secret key: PayByCard, or Confirm3DSComplete on the second call of a 3DS challenge; the current 200 ThreeDSAuthorisationRequired becomes the legacy 403 paymentActionRequired.',
  legacy: 'POST /orders/{merchantOrderId}/pay',
  current: 'POST /orders/{orderId}/pay',
  params: { merchantOrderId: toPath('orderId', 'order') },
  body: payBody,
  request: payRequest,
  response: payAnswer,
  answers: { 200: PAY_ANSWER, 403: THREE_DS_ANSWER },
  readback: readPayment,
  writeCheck: checkPay,
});

export const payPlatformOrder = defineMapping({
  route: 'L5',
  description: 'Pay a sub-merchant order with the platform API key: as L4, with Marketplace-Id and Merchant-Id from the path.',
  legacy: 'POST /platforms/{platformId}/merchants/{merchantId}/orders/{merchantOrderId}/pay',
  current: 'POST /orders/{orderId}/pay',
  params: {
    platformId: toHeader('Marketplace-Id', 'marketplace'),
    merchantId: toHeader('Merchant-Id', 'merchant'),
    merchantOrderId: toPath('orderId', 'order'),
  },
  body: payBody,
  request: payRequest,
  response: payAnswer,
  answers: { 200: PAY_ANSWER, 403: THREE_DS_ANSWER },
  readback: readPayment,
  writeCheck: checkPay,
});
