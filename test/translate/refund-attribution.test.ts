/**
 * L7's refundId is the refund this call created (legacy-api.md section 4): the id new in the answer
 * against the transaction read just before. When another refund of the same transaction lands between
 * that read and this refund, the new ids are told apart by amount; when they cannot be, the answer
 * names none rather than another call's refund. In-process: the current API's answers are scripted.
 */
import { describe, expect, it } from 'vitest';
import { createTranslator, type CurrentRequest, type CurrentResponse } from '../../src/translate/index.js';
import { KEYS } from '../helpers/sandbox.js';

const translator = createTranslator();

/** A transaction detail with these refunds (id, amount), oldest first. */
function detail(refunds: [string, number][]) {
  return {
    purchaseDetails: {
      transactionId: 'tran_1',
      amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
      refundIds: refunds.map(([id]) => id),
      refundedAmount: refunds.reduce((n, [, a]) => n + a, 0),
    },
    timelines: [
      { eventType: 'PaymentSucceed', eventTime: '2026-11-26T00:00:00.000Z', amount: 10_000, identifier: null },
      ...refunds.map(([id, amount]) => ({
        eventType: 'PaymentRefunded',
        eventTime: '2026-11-26T00:01:00.000Z',
        amount,
        identifier: id,
      })),
    ],
  };
}

/** Runs L7 for `amount` with the read before and the refund's answer scripted; gives the legacy answer and the calls made. */
async function refund(amount: number, before: [string, number][], after: [string, number][]) {
  const calls: CurrentRequest[] = [];
  const answers: CurrentResponse[] = [
    { status: 200, body: detail(before) },
    { status: 200, body: detail(after) },
  ];
  const legacy = await translator.execute(
    {
      method: 'POST',
      path: '/refunds',
      headers: { 'limepay-secretkey': KEYS.soloSk },
      body: { transactionId: 'tran_1', refundAmount: { amount, currency: 'AUD' } },
    },
    async (current) => (calls.push(current), answers.shift()!),
  );
  return { legacy, calls };
}

describe('the refundId L7 answers', () => {
  it('is the one id new in the answer, not the last of refundIds', async () => {
    const { legacy, calls } = await refund(
      500,
      [['rfnd_old', 300]],
      [
        ['rfnd_mine', 500],
        ['rfnd_old', 300],
      ],
    );
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /transactions/tran_1',
      'PATCH /transactions/tran_1',
    ]);
    expect(calls[1]!.body).toEqual({ CreateRefund: { refundAmount: 500 } });
    expect(legacy).toEqual({ status: 200, body: { refundId: 'rfnd_mine' } });
  });

  it("is told apart by amount when another caller's refund landed between the read and this refund", async () => {
    const other = await refund(
      500,
      [['rfnd_old', 300]],
      [
        ['rfnd_old', 300],
        ['rfnd_mine', 500],
        ['rfnd_other', 200],
      ],
    );
    expect(other.legacy.body).toEqual({ refundId: 'rfnd_mine' });
    const otherFirst = await refund(
      200,
      [['rfnd_old', 300]],
      [
        ['rfnd_old', 300],
        ['rfnd_other', 500],
        ['rfnd_mine', 200],
      ],
    );
    expect(otherFirst.legacy.body).toEqual({ refundId: 'rfnd_mine' });
  });

  it('counts every refund id in the answer as new when the read before gave none, and reads amounts only from refund entries', async () => {
    const calls: CurrentRequest[] = [];
    const after = detail([
      ['rfnd_x', 500],
      ['rfnd_y', 200],
    ]);
    // a PaymentSucceed entry with the same amount and a refund id must not make rfnd_y look like ours
    after.timelines.push({
      eventType: 'PaymentSucceed',
      eventTime: '2026-11-26T00:02:00.000Z',
      amount: 200,
      identifier: 'rfnd_x',
    });
    const answers: CurrentResponse[] = [
      {
        status: 200,
        body: { purchaseDetails: { transactionId: 'tran_1', amount: { minorCurrencyUnits: 10_000, currency: 'AUD' } } },
      },
      { status: 200, body: after },
    ];
    const legacy = await translator.execute(
      {
        method: 'POST',
        path: '/refunds',
        headers: { 'limepay-secretkey': KEYS.soloSk },
        body: { transactionId: 'tran_1', refundAmount: { amount: 200, currency: 'AUD' } },
      },
      async (current) => (calls.push(current), answers.shift()!),
    );
    expect(legacy.body).toEqual({ refundId: 'rfnd_y' });
    // two new ids, told apart by amount
    const bare = await refund(
      500,
      [],
      [
        ['rfnd_a', 500],
        ['rfnd_b', 300],
      ],
    );
    expect(bare.legacy.body).toEqual({ refundId: 'rfnd_a' });
  });

  it('is null, never a guess, when two new refunds have the same amount', async () => {
    const { legacy } = await refund(
      500,
      [],
      [
        ['rfnd_a', 500],
        ['rfnd_b', 500],
      ],
    );
    expect(legacy).toEqual({ status: 200, body: { refundId: null } });
  });
});
