import { z } from 'zod';
import { blankable, idOf, shortText } from '../src/contract/zod-helpers.js';
import { transactionDetail } from '../src/contract/current-responses.js';
import {
  AnswerIncomplete,
  checkWrite,
  defineMapping,
  LegacyAnswer,
  readAnswer,
  stringAt,
  unlike,
  toHeader,
  toPath,
  type Completion,
  type FieldRule,
  type WriteOutcome,
} from '../src/translate/define.js';
import { isObj, moved, rename, values, type Obj } from '../src/translate/shape.js';
import { flatPayRead, payCompleteRead, threeDSRead } from './reads.js';
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

/** What PayByCard carries beside the token: a pay call with none of it is the official client's PayByPaymentToken. */
const CARD_OPTIONS = ['request3DS', 'authoriseOnly', 'returnURL', 'offSession', 'cardStatement'] as const;

/**
 * A call carrying the paymentActionRequired of a 3DS challenge is the second call, Confirm3DSComplete.
 * A first call is PayByCard, as the official client sends it for a card with its options; a call with
 * the token alone is PayByPaymentToken, as the official client pays a token that came without card
 * data in this checkout (a saved card's, a renewal's) and which pays any token (current-api-decisions.md).
 */
const payRequest = {
  wrap: (body: Obj) =>
    body.paymentActionRequired
      ? 'Confirm3DSComplete'
      : CARD_OPTIONS.some((k) => body[k] !== undefined)
        ? 'PayByCard'
        : 'PayByPaymentToken',
  shape: {
    PayByCard: { paymentToken: 'paymentTokenId', returnURL: 'returnUrl' },
    PayByPaymentToken: { paymentToken: 'paymentTokenId' },
    // the challenge is being completed (reference: the id under threeDSResponse, authoriseOnly repeated);
    // the first call's other options are not repeated
    Confirm3DSComplete: {
      paymentToken: 'paymentTokenId',
      paymentActionRequired: rename('threeDSResponse', {
        threeDSAuthorisationId: 'threeDSAuthorisationId',
        redirectURL: moved(),
      }),
      request3DS: moved(),
      authoriseOnly: 'authoriseOnly',
      returnURL: moved(),
      offSession: moved(),
      cardStatement: moved(),
    },
  },
};

const legacyStatus = values({ authorised: 'not_captured' });
const legacyPayType = values({ payinfull: 'paycard', PayInFull: 'paycard', PayPlan: 'payplan', payplan: 'payplan' });

type Completed = z.output<typeof payCompleteRead>['PayOrderComplete'];
type Paid = Completed | z.output<typeof flatPayRead>;

/**
 * A card payment's legacy answer from any published form of the current one, or any mix of their
 * fields: the figures flat (current-api.md, and inside `PayOrderComplete` as the sandbox and the guide
 * answer) or under `transactionDetails.purchaseDetails` (the reference). A figure no form carries is
 * not guessed: the answer is incomplete and the translator reads the transaction (`completion`).
 */
function paidAnswer(paid: Paid) {
  const purchase = (paid as Partial<Completed>).transactionDetails?.purchaseDetails;
  const answer = {
    transactionId: paid.transactionId,
    transactionStatus: paid.transactionStatus ?? purchase?.status,
    amount: paid.amount ?? purchase?.amount?.minorCurrencyUnits,
    currency: paid.currency ?? purchase?.amount?.currency,
    surchargeAmount: paid.surchargeAmount ?? purchase?.surchargeAmount,
    type: paid.payType ?? (paid as Partial<Completed>).type ?? purchase?.payType,
  };
  const missing = Object.entries(answer)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length > 0) throw new AnswerIncomplete(missing.join(', '));
  return { ...answer, transactionStatus: legacyStatus(answer.transactionStatus), type: legacyPayType(answer.type) };
}

/**
 * 3DS: the current 200 ThreeDSAuthorisationRequired is the legacy 403 paymentActionRequired. A payment:
 * its figures in legacy names, from whichever form the current API answered with.
 */
const payAnswer = readAnswer(
  [payCompleteRead, threeDSRead, flatPayRead],
  (body, legacyBody: z.output<typeof payBody>) => {
    const challenge = (body as Partial<z.output<typeof threeDSRead>>).ThreeDSAuthorisationRequired;
    if (challenge) {
      // paymentToken echoes the request's: the .NET SDK's PaymentActionResponse reads it
      return new LegacyAnswer(403, {
        paymentToken: legacyBody.paymentToken,
        paymentActionRequired: {
          threeDSAuthorisationId: challenge.threeDSAuthorisationId,
          redirectURL: challenge.redirectUrl,
        },
      });
    }
    return paidAnswer(
      (body as Partial<z.output<typeof payCompleteRead>>).PayOrderComplete ?? (body as z.output<typeof flatPayRead>),
    );
  },
);

/**
 * A pay answer without what the legacy answer needs: the transaction it names, or else the order's
 * transactions (paid, so it has one), read as the reference's PayOrderComplete form.
 */
const payCompletion: Completion = {
  path: (answer, { orderId }) => {
    const id = stringAt(answer, 'PayOrderComplete.transactionId') ?? stringAt(answer, 'transactionId');
    return id
      ? `/transactions/${encodeURIComponent(id)}`
      : `/transactions?orderId=${encodeURIComponent(orderId!)}&limit=500`;
  },
  adapt: (read, { orderId }) => {
    const details = (Array.isArray(read) ? read : [read]) as {
      purchaseDetails?: { orderId?: string; transactionId?: string; status?: string; createdAt?: string };
    }[];
    const detail = details.filter((d) => d.purchaseDetails?.orderId === orderId).at(-1);
    return (
      detail && {
        PayOrderComplete: {
          transactionId: detail.purchaseDetails?.transactionId,
          transactionStatus: detail.purchaseDetails?.status,
          transactionDetails: detail,
        },
      }
    );
  },
};

/** Shadow readback of a pay: the transaction it created, or the order when a 3DS challenge came back. */
const readPayment = ({ params, answer }: WriteOutcome) => {
  const transactionId = stringAt(answer, 'transactionId');
  return transactionId ? `/transactions/${transactionId}` : `/orders/${params.merchantOrderId}`;
};

type Detail = z.output<typeof transactionDetail>;

/**
 * authoriseOnly leaves the payment not captured. A 3DS completion that does not repeat it keeps the
 * first call's (legacy-api.md L4): the first call of the order this gateway forwarded says which.
 */
const authorisedOnly: FieldRule<Detail> = ({ asked, wrapper, state, outcome }) => {
  if (!state) return undefined;
  let wanted = asked;
  if (wanted === undefined && wrapper === 'Confirm3DSComplete') {
    const first = outcome.earlier?.findLast(
      (b) => isObj(b) && b.paymentToken !== undefined && !b.paymentActionRequired,
    ) as { authoriseOnly?: unknown } | undefined;
    if (!first) return "the 3DS challenge's first call, whose authoriseOnly holds, was not forwarded by this gateway";
    wanted = first.authoriseOnly;
  }
  return [wanted === true ? 'not_captured' : 'paid', state.purchaseDetails.status];
};

/**
 * request3DS true always asks for a challenge: a first call answered with a payment was not asked
 * for 3DS. A challenge the call did not ask for can be the issuer's own (any pay call can get one).
 */
const threeDSAsked: FieldRule<Detail> = ({ asked, wrapper, state }) => {
  if (wrapper !== 'PayByCard' || asked === undefined) return undefined;
  if (state) return [asked, false];
  return asked === true ? [true, true] : "a challenge the call did not ask for may be the card issuer's own";
};

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
        body: {
          ThreeDSAuthorisationRequired: {
            threeDSAuthorisationId: stringAt(answer, 'paymentActionRequired.threeDSAuthorisationId'),
            redirectUrl: stringAt(answer, 'paymentActionRequired.redirectURL'),
          },
        },
      };
    const p = state.purchaseDetails;
    return {
      status: 200,
      body: {
        transactionId: p.transactionId,
        transactionStatus: p.status,
        amount: p.amount.minorCurrencyUnits,
        currency: p.amount.currency,
        surchargeAmount: p.surchargeAmount,
        payType: p.payType === 'PayInFull' ? 'payinfull' : p.payType,
      },
    };
  },
  effect: {
    at: (state) => state.purchaseDetails,
    fields: { authoriseOnly: authorisedOnly, request3DS: threeDSAsked },
    // the order paid is the one on the path
    also: (state, { params }) => unlike({ orderId: [params.merchantOrderId, state.purchaseDetails.orderId] }),
  },
  // a pay makes one event; another is a later write's (a capture, a refund, a cancel)
  moved: (state) => state.timelines.length > 1,
});

export const payOrder = defineMapping({
  route: 'L4',
  description:
    'Pay an order with the secret key: PayByCard, or Confirm3DSComplete on the second call of a 3DS challenge; the current 200 ThreeDSAuthorisationRequired becomes the legacy 403 paymentActionRequired.',
  legacy: 'POST /orders/{merchantOrderId}/pay',
  current: 'POST /orders/{orderId}/pay',
  params: { merchantOrderId: toPath('orderId', 'order') },
  body: payBody,
  request: payRequest,
  response: payAnswer,
  answers: { 200: PAY_ANSWER, 403: THREE_DS_ANSWER },
  completion: payCompletion,
  readback: readPayment,
  writeCheck: checkPay,
});

export const payPlatformOrder = defineMapping({
  route: 'L5',
  description:
    'Pay a sub-merchant order with the platform API key: as L4, with Marketplace-Id and Merchant-Id from the path.',
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
  completion: payCompletion,
  readback: readPayment,
  writeCheck: checkPay,
});
