/** A current call that fails as it starts (a synchronous throw in the upstream) fails like one that fails later. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { PaybridgeError } from '../../src/errors.js';
import { createAnswers } from '../../src/gateway/answers.js';
import type { createClassifier } from '../../src/gateway/classify.js';
import { createCurrentCaller } from '../../src/gateway/routes/translated.js';
import type { Upstream } from '../../src/gateway/upstream.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { logSink } from '../helpers/gateway.js';

const current = {
  method: 'GET',
  path: '/orders/ordr_1',
  headers: { authorization: 'Bearer sandbox_sk_solo_secret_key' },
};

function caller(upstreamFor: () => string, call: () => unknown) {
  const metrics = createMetrics();
  const logs = logSink();
  const answers = createAnswers({
    metrics,
    log: pino({ level: 'info' }, logs.stream),
    access: () => {},
    draining: () => false,
  });
  const callCurrent = createCurrentCaller({
    classifier: { upstreamFor } as unknown as ReturnType<typeof createClassifier>,
    upstream: { call } as unknown as Upstream,
    answers,
  });
  const upstreamErrors = async () =>
    (await metrics.upstreamErrors.get()).values.map((v) => ({ ...v.labels, value: v.value }));
  return { callCurrent, upstreamErrors, logs };
}

describe('createCurrentCaller', () => {
  it('turns an upstream call that throws as it starts into a rejected 502 upstream_error, counted and logged', async () => {
    const { callCurrent, upstreamErrors, logs } = caller(
      () => 'http://127.0.0.1:9',
      () => {
        throw new Error('the pool is closed');
      },
    );
    // a synchronous throw out of callCurrent would fail here, before the promise exists
    const err = await callCurrent(current, 'req-sync-throw-1', 'L6').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PaybridgeError);
    expect(err).toMatchObject({ code: 'upstream_error', status: 502 });
    expect((err as PaybridgeError).detail).toContain('the pool is closed');
    expect(await upstreamErrors()).toEqual([{ route: 'L6', code: 'upstream_error', status: '502', value: 1 }]);
    expect(logs.records()).toContainEqual(
      expect.objectContaining({ level: 40, requestId: 'req-sync-throw-1', route: 'L6', msg: 'upstream call failed' }),
    );
  });

  it("rejects with the classifier's own error, not counted as an upstream failure, when no upstream serves the credential", async () => {
    let called = 0;
    const { callCurrent, upstreamErrors } = caller(
      () => {
        throw new PaybridgeError('unauthenticated', 'no live current upstream is configured for this credential');
      },
      () => called++,
    );
    const err = await callCurrent(current, 'req-no-upstream-1', 'L6').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(called).toBe(0);
    expect(await upstreamErrors()).toEqual([]);
  });
});
