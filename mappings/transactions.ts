import { z } from 'zod';
import {
  legacyReverseBody,
  legacyTransferAnswer,
  legacyTransferBody,
  noTransferToReverse,
  transferToReverse,
} from '../src/contract/legacy-transfers.js';
import { transactionDetail } from '../src/contract/current-responses.js';
import { amountInt, idOf } from '../src/contract/zod-helpers.js';
import { PaybridgeError } from '../src/errors.js';
import {
  checkWrite,
  defineMapping,
  readAnswer,
  readFirst,
  stringAt,
  toPath,
  toQuery,
  unlike,
  type Completion,
  type WriteOutcome,
} from '../src/translate/define.js';
import { amountOnly, compileShape, moved, type Obj } from '../src/translate/shape.js';
import { transactionListRead, transactionRead, transferRead, type TransactionRead } from './reads.js';
import { LEGACY_TRANSACTION, legacyMoney, sameCurrency } from './shapes.js';
import { ok, TRANSACTION_ANSWER, TRANSFER_ANSWER } from './answers.js';

type TransactionDetail = z.output<typeof transactionDetail>;

const transactionId = { transactionId: toPath('transactionId', 'transaction') };
const legacyTransaction = compileShape(LEGACY_TRANSACTION);
/** The legacy transaction from the current detail, read at the edge by what the shape reads. */
const transactionResponse = readAnswer([transactionRead], (detail) => legacyTransaction.backward(detail));
/** A transaction action's answer without the transaction in it: the transaction on the path, read. */
const readTheTransaction: Completion = {
  path: (_answer, { transactionId: id }) => `/transactions/${encodeURIComponent(id!)}`,
};
/** An order's transactions, every page, only those whose purchaseDetails.orderId is the order (never trust a filter). */
const ORDER_FILTER = { filters: { orderId: 'purchaseDetails.orderId' } } as const;
const transactionAnswer = ok(TRANSACTION_ANSWER);
/** A preflight read of the transaction the call acts on. */
const readTransaction = <L>(
  check: (detail: TransactionDetail, legacyBody: L) => Obj | void,
  options?: { exclusive?: true },
) => readFirst('GET /transactions/{transactionId}', transactionDetail, check, options);
const captureBody = z.object({ captureAmount: z.union([amountInt(1), legacyMoney(1)]).optional() });
/** Shadow readback of a transaction action: the transaction it acted on. */
const readBack = ({ params }: WriteOutcome) => `/transactions/${params.transactionId}`;

/** The most recent transaction of an order's transaction list, or a legacy 404. */
const latestTransaction = readAnswer([transactionListRead], (items) => {
  let latest: TransactionRead | undefined;
  for (const item of items)
    if (!latest || (item.purchaseDetails.createdAt ?? '') >= (latest.purchaseDetails.createdAt ?? '')) latest = item;
  if (!latest) throw new PaybridgeError('not_found', 'transactionId: the order has no transaction');
  return legacyTransaction.backward(latest);
});

export const getTransaction = defineMapping({
  route: 'L6',
  description:
    "Read a transaction: the current transaction detail flattened into the legacy transaction (fee = serviceFees.totalAmount, refunds from the PaymentRefunded timeline). Given an order id (ordr_), the order's most recent transaction.",
  legacy: 'GET /transactions/{transactionId}',
  current: 'GET /transactions/{transactionId}',
  params: transactionId,
  response: transactionResponse,
  answers: transactionAnswer,
  byIdKind: {
    param: 'transactionId',
    kind: 'order',
    mapping: {
      route: 'L6',
      description:
        "Read the most recent transaction of an order (the .NET SDK passes a merchantOrderId): Query Transactions by orderId, every page, only the order's own transactions.",
      legacy: 'GET /transactions/{transactionId}',
      current: 'GET /transactions',
      params: { transactionId: toQuery('orderId', 'order') },
      response: latestTransaction,
      answers: transactionAnswer,
      paged: ORDER_FILTER,
    },
  },
});

/** The amount an authorisation held: what a capture without an amount takes (legacy-api.md L9). */
const authorisedAmount = (state: TransactionDetail) =>
  state.timelines.find((t) => t.eventType === 'PaymentAuthorised')?.amount;

/** Shadow's check of an authorisation's capture or cancel: the transaction on the path, in the status the action leaves. */
const checkAuthorisation = (status: 'paid' | 'cancelled') =>
  checkWrite({
    state: readBack,
    reads: transactionDetail,
    answer: (state) => ({ status: 200, body: state }),
    effect: {
      at: (state) => state.purchaseDetails,
      // CaptureFunds without an amount captures the whole authorisation: what is captured is the amount asked, or all of it
      fields: {
        amount: ({ asked, state, wrapper }) =>
          wrapper === 'CaptureFunds' && state
            ? [asked ?? authorisedAmount(state), state.purchaseDetails.amount.minorCurrencyUnits]
            : undefined,
      },
      also: (state) => unlike({ status: [status, state.purchaseDetails.status] }),
    },
    // the transaction at a later version than the one the legacy answer shows
    moved: (state, { answer }) => !(state.purchaseDetails.updatedAt <= (stringAt(answer, 'updatedAt') ?? '')),
  });

export const captureAuthorisation = defineMapping({
  route: 'L9',
  description:
    'Capture an authorisation: captureAmount (an integer in minor units, as the .NET SDK sends it, or {amount, currency}) becomes CaptureFunds {amount}; unset (the .NET SDK sends {}), CaptureFunds {} captures the whole authorised amount; a currency, when given, is checked first.',
  legacy: 'POST /transactions/{transactionId}/authorisation:capture',
  current: 'PATCH /transactions/{transactionId}',
  params: transactionId,
  body: captureBody,
  request: { wrap: 'CaptureFunds', shape: { captureAmount: amountOnly('amount') } },
  preflight: readTransaction(
    sameCurrency('captureAmount.currency', (b: z.output<typeof captureBody>) =>
      typeof b.captureAmount === 'object' ? b.captureAmount.currency : undefined,
    ),
  ),
  response: transactionResponse,
  answers: transactionAnswer,
  completion: readTheTransaction,
  readback: readBack,
  writeCheck: checkAuthorisation('paid'),
});

export const cancelAuthorisation = defineMapping({
  route: 'L10',
  description: 'Cancel an authorisation: DELETE becomes a PATCH on the transaction with CancelAuthorisation.',
  legacy: 'DELETE /transactions/{transactionId}/authorisation',
  current: 'PATCH /transactions/{transactionId}',
  params: transactionId,
  request: { wrap: 'CancelAuthorisation' },
  response: transactionResponse,
  answers: transactionAnswer,
  completion: readTheTransaction,
  readback: readBack,
  writeCheck: checkAuthorisation('cancelled'),
});

export const queryTransactions = defineMapping({
  route: 'L17',
  description:
    "List the transactions of an order: the merchantOrderId query parameter becomes the orderId filter; every page read (limit, page), only the order's own transactions kept (purchaseDetails.orderId: a filter is never trusted); answered {transactions}.",
  legacy: 'GET /transactions',
  current: 'GET /transactions',
  query: { schema: z.object({ merchantOrderId: idOf('order').optional() }), shape: { merchantOrderId: 'orderId' } },
  response: readAnswer([transactionListRead], (items) => ({
    transactions: items.map((item) => legacyTransaction.backward(item)),
  })),
  answers: ok(z.object({ transactions: z.array(TRANSACTION_ANSWER) })),
  paged: ORDER_FILTER,
});

/** The L26/L27 answer from the current transaction detail after the action (legacy-api.md section 4). */
const transferAnswer = readAnswer([transferRead], ({ purchaseDetails: p, transfers }) =>
  legacyTransferAnswer({
    transactionId: p.transactionId,
    merchantId: p.merchantId,
    amount: p.amount.minorCurrencyUnits,
    currency: p.amount.currency,
    transfers,
  }),
);

/** L26/L27's preflight: the legacy body names the transaction's merchant and currency; checked before anything moves. */
function transferParties(
  merchantField: 'fromMerchant' | 'toMerchant',
  currencyField: 'transferAmount' | 'reverseAmount',
) {
  const currency = sameCurrency(
    `${currencyField}.currency`,
    (b: Obj) => (b[currencyField] as { currency: string }).currency,
  );
  return (detail: TransactionDetail, body: Obj): void => {
    currency(detail, body);
    if (body[merchantField] !== detail.purchaseDetails.merchantId)
      throw new PaybridgeError(
        'invalid_request',
        `${merchantField}: ${String(body[merchantField])} is not the merchant of ${detail.purchaseDetails.transactionId}`,
      );
  };
}

/** The transfer an L27 call reversed, as the state after it shows it: to fromMerchant, of reverseAmount. */
const reversedBy = (state: TransactionDetail, body: unknown) => {
  const b = body as { fromMerchant?: string; reverseAmount?: { amount?: number } };
  return state.transfers.findLast(
    (t) =>
      t.status === 'reversed' && t.destinationMerchantId === b.fromMerchant && t.amount === b.reverseAmount?.amount,
  );
};

/** Shadow's check of a transfer: the transaction's latest transfer holds what the translated TransferFunds asks for. */
const checkTransfer = checkWrite({
  state: readBack,
  reads: transactionDetail,
  answer: (state) => ({ status: 200, body: state }),
  effect: {
    // the transfer under the names TransferFunds gives its fields
    at: (state) => {
      const latest = state.transfers.at(-1);
      return (
        latest && {
          transferAmount: latest.amount,
          destinationMerchantId: latest.destinationMerchantId,
          surchargeFee: latest.surchargeFee,
          levy: latest.levy,
        }
      );
    },
    also: (state) => unlike({ transferStatus: ['completed', state.transfers.at(-1)?.status] }),
  },
});

export const transferFunds = defineMapping({
  route: 'L26',
  tier: 2,
  description:
    'Transfer part of a payment to another sub-merchant (legacy reference body): TransferFunds {destinationMerchantId: toMerchant, transferAmount: transferAmount.amount, surchargeFee: surcharge, levy: levy or null} (the transaction-transfers guide); fromMerchant and the currency checked against the transaction first; metadata dropped and reported; answered with the transfer summary.',
  legacy: 'POST /transactions/{transactionId}/transfers',
  current: 'PATCH /transactions/{transactionId}',
  params: transactionId,
  body: legacyTransferBody.omit({ metadata: true }),
  request: {
    wrap: 'TransferFunds',
    shape: {
      fromMerchant: moved(),
      toMerchant: 'destinationMerchantId',
      transferAmount: amountOnly('transferAmount'),
      surcharge: 'surchargeFee',
      levy: 'levy',
    },
    // no levy asked: none (the guide's null)
    add: { levy: null },
  },
  preflight: readTransaction(transferParties('fromMerchant', 'transferAmount')),
  response: transferAnswer,
  answers: ok(TRANSFER_ANSWER),
  completion: readTheTransaction,
  readback: readBack,
  writeCheck: checkTransfer,
});

export const reverseTransfer = defineMapping({
  route: 'L27',
  tier: 2,
  description:
    'Reverse a transfer (legacy reference body, which names no transfer): the gateway reads the transaction and reverses the most recent transfer still in effect to fromMerchant of exactly reverseAmount, ReverseFundsTransfer {transferId}; none is a 400; reverseLevy ignored (a reversal takes back the whole transfer), metadata dropped and reported; answered like L26.',
  legacy: 'POST /transactions/{transactionId}/transfers:reverse',
  current: 'PATCH /transactions/{transactionId}',
  params: transactionId,
  body: legacyReverseBody.omit({ metadata: true }),
  request: {
    wrap: 'ReverseFundsTransfer',
    shape: { fromMerchant: moved(), toMerchant: moved(), reverseAmount: moved(), reverseLevy: moved() },
  },
  preflight: readTransaction(
    (detail, body: z.output<typeof legacyReverseBody>) => {
      transferParties('toMerchant', 'reverseAmount')(detail, body);
      const transfer = transferToReverse(detail.transfers, body);
      if (!transfer) throw new PaybridgeError('invalid_request', noTransferToReverse(body));
      return { transferId: transfer.transferId };
    },
    // one reversal at a time per transaction: two concurrent calls never choose the same transfer
    { exclusive: true },
  ),
  response: transferAnswer,
  answers: ok(TRANSFER_ANSWER),
  completion: readTheTransaction,
  readback: readBack,
  // the transfer the legacy call reversed (to fromMerchant, of reverseAmount) is reversed on the current API
  writeCheck: checkWrite({
    state: readBack,
    reads: transactionDetail,
    answer: (state) => ({ status: 200, body: state }),
    effect: {
      // the transfer the legacy call reversed is the one the translated call names
      at: (state, { body }) => ({ transferId: reversedBy(state, body)?.transferId }),
      also: (state, { body }) => unlike({ reversed: [true, reversedBy(state, body) !== undefined] }),
    },
    completes: (state, { body }) => {
      const reversed = reversedBy(state, body);
      return reversed && { transferId: reversed.transferId };
    },
  }),
});
