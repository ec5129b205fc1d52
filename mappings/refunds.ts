import { z } from 'zod';
import { idOf } from '../src/contract/zod-helpers.js';
import { defineMapping, toHeader, toPath, type WriteOutcome } from '../src/translate/define.js';
import { amountOnly, type Obj } from '../src/translate/shape.js';
import { legacyMoney, sameCurrency } from './shapes.js';

const refundBody = z.object({ transactionId: idOf('transaction'), refundAmount: legacyMoney(1) });

const refund = {
  body: refundBody,
  current: 'PATCH /transactions/{transactionId}',
  request: {
    wrap: 'CreateRefund',
    move: { transactionId: toPath('transactionId', 'transaction') },
    shape: { refundAmount: amountOnly() },
  },
  // the currency has no place in CreateRefund: it is checked against the transaction before anything is sent
  preflight: {
    current: 'GET /transactions/{transactionId}',
    check: sameCurrency('refundAmount.currency', (b: Obj) => (b.refundAmount as { currency: string }).currency),
  },
  // the refund just created is the last of refundIds
  response: { map: (detail: { purchaseDetails: { refundIds: string[] } }) => ({ refundId: detail.purchaseDetails.refundIds.at(-1) }) },
  readback: ({ body }: WriteOutcome) => `/transactions/${body.transactionId}`,
} as const;

export const createRefund = defineMapping({
  route: 'L7',
  description: 'Refund with the secret key: POST /refunds becomes a PATCH on the transaction with CreateRefund, after a currency check; answered {refundId}.',
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
