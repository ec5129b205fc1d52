/**
 * The legacy transfer bodies as the legacy reference defines them (legacy-api.md, L26 and L27): one
 * statement for the gateway's mappings and the sandbox's legacy face. The current TransferFunds has a
 * place for both the surcharge and the levy (transaction-transfers guide: `surchargeFee`, `levy`).
 */
import { z } from 'zod';
import { amountInt, currencyCode, idOf, metadata } from './zod-helpers.js';

const money = z.object({ amount: amountInt(1), currency: currencyCode });

/** L26: `metadata` is taken and not kept (the current action has no place for it). */
export const legacyTransferBody = z.object({
  fromMerchant: idOf('merchant'),
  toMerchant: idOf('merchant'),
  transferAmount: money,
  surcharge: z.boolean(),
  levy: amountInt(0).optional(),
  metadata: metadata.optional(),
});

/** L27: the reference names no transfer; a reversal takes back the whole transfer, its levy with it. */
export const legacyReverseBody = z.object({
  fromMerchant: idOf('merchant'),
  toMerchant: idOf('merchant'),
  reverseAmount: money,
  reverseLevy: z.boolean(),
  metadata: metadata.optional(),
});

export interface TransferRecord {
  transferId: string;
  amount: number;
  destinationMerchantId: string;
  status: string;
  createdAt: string;
  /** Deducted from what the destination received (absent or null: none). */
  levy?: number | null | undefined;
}

/**
 * The transfer an L27 call reverses: the most recent transfer still in effect to `fromMerchant` whose
 * amount equals `reverseAmount` (legacy-api.md section 4), or undefined.
 */
export function transferToReverse(
  transfers: readonly TransferRecord[],
  body: z.output<typeof legacyReverseBody>,
): TransferRecord | undefined {
  let chosen: TransferRecord | undefined;
  for (const t of transfers)
    if (
      t.status === 'completed' &&
      t.destinationMerchantId === body.fromMerchant &&
      t.amount === body.reverseAmount.amount
    )
      if (!chosen || t.createdAt >= chosen.createdAt) chosen = t;
  return chosen;
}

/** The sentence of the 400 when no transfer matches an L27 call. */
export const noTransferToReverse = (body: z.output<typeof legacyReverseBody>) =>
  `reverseAmount: no transfer of ${body.reverseAmount.amount} ${body.reverseAmount.currency} to ${body.fromMerchant} is left to reverse (a reversal takes back one whole transfer)`;

/** The L26/L27 answer (legacy reference) from a transaction's figures and its transfers still in effect. */
export function legacyTransferAnswer(tx: {
  transactionId: string;
  merchantId: string;
  amount: number;
  currency: string;
  transfers: readonly TransferRecord[];
}) {
  const live = tx.transfers.filter((t) => t.status === 'completed');
  return {
    transactionTransferId: null,
    transactionId: tx.transactionId,
    transactionMerchant: tx.merchantId,
    transactionAmount: tx.amount,
    currency: tx.currency,
    totalTransferred: live.reduce((sum, t) => sum + t.amount, 0),
    // the platform fee's figure is not shown by the current API: no surcharge amount is reported
    totalSurcharged: 0,
    totalLevied: live.reduce((sum, t) => sum + (t.levy ?? 0), 0),
    transfers: live.map((t) => ({
      transferredToMerchantId: t.destinationMerchantId,
      idempotencyKey: null,
      createdAt: t.createdAt,
      transferred: t.amount,
      surcharged: 0,
      levy: t.levy ?? 0,
      metadata: null,
    })),
  };
}
