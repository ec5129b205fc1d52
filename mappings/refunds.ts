import { z } from 'zod';
import { idOf } from '../src/contract/zod-helpers.js';
import { transactionDetail } from '../src/contract/current-responses.js';
import {
  checkWrite,
  defineMapping,
  readAnswer,
  readFirst,
  stringAt,
  toHeader,
  toPath,
  type WriteOutcome,
} from '../src/translate/define.js';
import { refundRead } from './reads.js';
import { amountOnly } from '../src/translate/shape.js';
import { legacyMoney, sameCurrency } from './shapes.js';
import { ok } from './answers.js';

const refundBody = z.object({ transactionId: idOf('transaction'), refundAmount: legacyMoney(1) });

type Detail = z.output<typeof transactionDetail>;

/**
 * The refund this call created: the id new in the answer against the transaction read just before
 * (legacy-api.md section 4). The translator runs the read and the refund one at a time per
 * transaction; should another writer still slip in, the new ids are told apart by amount, and an id
 * that cannot be told apart is never guessed (null, logged by the caller's answer).
 */
const createdRefund = readAnswer(
  [refundRead],
  (detail, legacy: z.output<typeof refundBody>, before: Detail | undefined) => {
    const known = new Set(before?.purchaseDetails.refundIds ?? []);
    const fresh = detail.purchaseDetails.refundIds.filter((id) => !known.has(id));
    if (fresh.length === 1) return { refundId: fresh[0] };
    const amounts = new Map(
      detail.timelines.filter((t) => t.eventType === 'PaymentRefunded').map((t) => [t.identifier, t.amount]),
    );
    const sameAmount = fresh.filter((id) => amounts.get(id) === legacy.refundAmount.amount);
    return { refundId: sameAmount.length === 1 ? sameAmount[0] : null };
  },
);

/** The refunds of a transaction, oldest first (the PaymentRefunded timeline). */
const refundsOf = (detail: Detail) => detail.timelines.filter((t) => t.eventType === 'PaymentRefunded');

/**
 * Shadow's check of a refund: the transaction after it; the refund the legacy answer names must be
 * there with the amount the translated CreateRefund asks for; the mapping's answer is built against
 * the transaction as the gateway would have read it just before and just after that refund (later
 * refunds left out): judged whatever refunds came after it, never raced.
 */
const checkRefund = checkWrite({
  state: ({ body }) => `/transactions/${stringAt(body, 'transactionId')}`,
  reads: transactionDetail,
  answer: (state, { answer }) => {
    if (!state) return { status: 200, body: undefined };
    const id = stringAt(answer, 'refundId');
    const at = id === undefined ? -1 : state.purchaseDetails.refundIds.indexOf(id);
    if (at < 0) return { status: 200, body: state, before: state };
    const upTo = (n: number): Detail => {
      const kept = new Set(state.purchaseDetails.refundIds.slice(0, n));
      return {
        ...state,
        purchaseDetails: { ...state.purchaseDetails, refundIds: [...kept] },
        timelines: state.timelines.filter((t) => t.eventType !== 'PaymentRefunded' || kept.has(t.identifier ?? '')),
      };
    };
    return { status: 200, body: upTo(at + 1), before: upTo(at) };
  },
  effect: {
    at: (state) => state,
    fields: {
      refundAmount: ({ asked, state, outcome }) =>
        state && [asked, refundsOf(state).find((t) => t.identifier === stringAt(outcome.answer, 'refundId'))?.amount],
    },
  },
  isolated: true,
});

const refund = {
  body: refundBody,
  current: 'PATCH /transactions/{transactionId}',
  request: {
    wrap: 'CreateRefund',
    move: { transactionId: toPath('transactionId', 'transaction') },
    shape: { refundAmount: amountOnly() },
  },
  // the currency has no place in CreateRefund: it is checked against the transaction before anything is sent
  preflight: readFirst(
    'GET /transactions/{transactionId}',
    transactionDetail,
    sameCurrency('refundAmount.currency', (b: z.output<typeof refundBody>) => b.refundAmount.currency),
    { exclusive: true },
  ),
  response: createdRefund,
  // an answer without the transaction: the transaction read (the refund's id is the one new in it)
  completion: {
    path: (_answer: unknown, { transactionId }: Readonly<Record<string, string>>) =>
      `/transactions/${encodeURIComponent(transactionId!)}`,
  },
  answers: ok(
    z.object({
      refundId: z
        .string()
        .startsWith('rfnd_')
        .nullable()
        .describe('the refund this call created (null only if it cannot be told from a concurrent one)'),
    }),
  ),
  readback: ({ body }: WriteOutcome) => `/transactions/${stringAt(body, 'transactionId')}`,
  writeCheck: checkRefund,
} as const;

export const createRefund = defineMapping({
  route: 'L7',
  description:
    'Refund with the secret key: POST /refunds becomes a PATCH on the transaction with CreateRefund, after a currency check; answered {refundId}.',
  legacy: 'POST /refunds',
  ...refund,
});

export const createPlatformRefund = defineMapping({
  route: 'L8',
  description: 'Refund a sub-merchant transaction with the platform API key: as L7, with Marketplace-Id from the path.',
  legacy: 'POST /platforms/{platformId}/refunds',
  params: { platformId: toHeader('Marketplace-Id', 'marketplace') },
  ...refund,
});
