/** Upstream failures become legacy errors; nothing non-idempotent is ever sent twice. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyError } from '../helpers/legacy-shapes.js';
import { client } from '../helpers/http.js';
import { startFakeUpstream } from '../helpers/fake-upstream.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { KEYS } from '../helpers/sandbox.js';

let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
const logs = logSink();
const api = () => client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
const PAY = 'POST /orders/ordr_1/pay';

beforeAll(async () => {
  fake = await startFakeUpstream();
  gw = await startGateway(
    {
      upstreams: { sandbox: { current: fake.url, legacy: fake.url } },
      timeouts: { connectMs: 300, headersMs: 400, bodyMs: 400, requestMs: 1_000 },
    },
    logs.stream,
  );
});
afterAll(async () => {
  await gw.close();
  await fake.close();
});

async function expectError(res: { status: number; body: unknown; headers: Headers }, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = legacyError.parse(res.body);
  expect(body.errorCode).toBe(code);
  expect(body.tracer).toBe(res.headers.get('x-request-id'));
}

describe('upstream failures', () => {
  it('a refused connection is 502 upstream_error', async () => {
    const down = await startGateway({ upstreams: { sandbox: { current: 'http://127.0.0.1:1' } } });
    try {
      await expectError(
        await client(down.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/ordr_1'),
        502,
        'upstream_error',
      );
    } finally {
      await down.close();
    }
  });

  it('a reset is 502; a GET is retried once on a reset, a pay never', async () => {
    fake.set('reset');
    await expectError(await api().get('/orders/ordr_1'), 502, 'upstream_error');
    expect(fake.count('GET /orders/ordr_1')).toBe(2);
    await expectError(await api().post('/orders/ordr_1/pay', { paymentToken: 'ptkn_1' }), 502, 'upstream_error');
    expect(fake.count(PAY)).toBe(1);
  });

  it('a reset in the middle of the body is 502, and the pay was sent once', async () => {
    fake.set('resetMidBody');
    await expectError(await api().post('/orders/ordr_1/pay', { paymentToken: 'ptkn_1' }), 502, 'upstream_error');
    expect(fake.count(PAY)).toBe(1);
  });

  it('a hang past the headers timeout is 504 upstream_timeout, and the timed-out pay reached the upstream exactly once', async () => {
    fake.set('hang');
    await expectError(await api().post('/orders/ordr_1/pay', { paymentToken: 'ptkn_1' }), 504, 'upstream_timeout');
    await new Promise((r) => setTimeout(r, 500));
    expect(fake.count(PAY)).toBe(1);
    expect(fake.counts.size).toBe(1);
  });

  it('a slow trickle past the body timeout is 504', async () => {
    fake.set('trickle');
    const started = Date.now();
    await expectError(await api().get('/orders/ordr_1'), 504, 'upstream_timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a 500 is 502 upstream_error; an HTML body or malformed JSON is 502 as well', async () => {
    fake.set('error500');
    await expectError(await api().get('/orders/ordr_1'), 502, 'upstream_error');
    fake.set('html');
    await expectError(await api().get('/orders/ordr_1'), 502, 'upstream_error');
    fake.set('malformed');
    await expectError(await api().get('/transactions/tran_1'), 502, 'upstream_error');
    expect(fake.count('GET /transactions/tran_1')).toBe(1);
  });

  it('counts upstream errors per route in /metrics and logs them without credentials', async () => {
    // its own failures, so that it holds alone (as a mutation run runs it) as after the tests above
    const count = async (series: string) =>
      Number(
        new RegExp(`^paybridge_upstream_errors_total\\{${series}\\} (\\d+)$`, 'm').exec(
          (await client(gw.url).get('/metrics')).text,
        )?.[1] ?? 0,
      );
    const timeouts = await count('route="L4",code="upstream_timeout",status="504"');
    const errors = await count('route="L3",code="upstream_error",status="502"');
    fake.set('hang');
    await expectError(await api().post('/orders/ordr_1/pay', { paymentToken: 'ptkn_1' }), 504, 'upstream_timeout');
    fake.set('reset');
    await expectError(await api().get('/orders/ordr_1'), 502, 'upstream_error');
    expect(await count('route="L4",code="upstream_timeout",status="504"')).toBe(timeouts + 1);
    expect(await count('route="L3",code="upstream_error",status="502"')).toBe(errors + 1);
    const text = logs.lines.join('\n');
    expect(text).toContain('upstream call failed');
    expect(text).not.toContain(KEYS.soloSk);
  });
});

describe('the log line of a failed upstream call', () => {
  it('names the call that failed: a translated call, a passthrough', async () => {
    fake.set('reset');
    await expectError(await api().get('/transactions/tran_logged'), 502, 'upstream_error');
    await expectError(
      await client(gw.url, { authorization: `Bearer ${KEYS.soloSk}` }).get('/transactions/tran_passed'),
      502,
      'upstream_error',
    );
    gw.gateway.flushLogs();
    const failed = logs.records().filter((r) => r.level === 40 && /call failed$/.test(String(r.msg)));
    expect(failed.map((r) => [r.route, r.msg])).toEqual(
      expect.arrayContaining([
        ['L6', 'upstream call failed'],
        ['current', 'passthrough upstream call failed'],
      ]),
    );
  });
});

describe('hardening', () => {
  it('refuses bad input before any upstream call', async () => {
    fake.set('ok');
    const cases: [string, string, object, number, string, RegExp][] = [
      ['POST', '/orders', { raw: '{"internalOrderId": ' }, 400, 'invalid_request', /^body: malformed JSON/],
      // a body is JSON whatever its declared type; a body that is not JSON is refused naming the body
      [
        'POST',
        '/orders',
        { raw: 'internalOrderId=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        400,
        'invalid_request',
        /^body: malformed JSON/,
      ],
      [
        'POST',
        '/orders',
        { raw: JSON.stringify({ description: 'x'.repeat(1_100_000) }) },
        413,
        'payload_too_large',
        /^body/,
      ],
      ['GET', '/orders/ordr_1', { headers: { 'Merchant-Id': 'mcht_other' } }, 400, 'invalid_request', /^Merchant-Id/],
      ['GET', '/orders/ORDER-1', {}, 400, 'invalid_request', /^merchantOrderId: expected an id with prefix ordr_/],
      ['GET', '/orders/ordr_1%2F..%2Fx', {}, 400, 'invalid_request', /^merchantOrderId/],
      [
        'POST',
        '/refunds',
        { body: { transactionId: 'tran_1', refundAmount: { amount: -5, currency: 'AUD' } } },
        400,
        'invalid_request',
        /^refundAmount\.amount/,
      ],
      ['GET', '/no/such/route', {}, 404, 'route_not_mapped', /^GET \/no\/such\/route is not a legacy route/],
      // a body twice the limit is read to its end, so the client reads the 413 rather than a broken pipe
      [
        'POST',
        '/refunds',
        { raw: JSON.stringify({ transactionId: 'tran_1', pad: 'x'.repeat(2 * 1024 * 1024) }) },
        413,
        'payload_too_large',
        /^body: exceeds/,
      ],
      ['GET', '/orders/ordr_%E0%A4%A', {}, 400, 'invalid_request', /^path: malformed percent-encoding/],
    ];
    for (const [method, path, options, status, code, detail] of cases) {
      const res = await api().raw(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.body).toMatchObject({ statusCode: status, errorCode: code, detail: expect.stringMatching(detail) });
    }
    const noCredential = await client(gw.url).get('/orders/ordr_1');
    expect(noCredential.body).toMatchObject({ statusCode: 401, errorCode: 'missing_credentials' });
    expect(fake.counts.size).toBe(0);
  });

  it("counts no traffic for the gateway's own paths (favicon, health, metrics)", async () => {
    const counted = async () =>
      (await client(gw.url).get('/metrics')).text
        .split('\n')
        .filter((l) => l.startsWith('paybridge_requests_total'))
        .join('\n');
    const before = await counted();
    for (const path of ['/favicon.ico', '/healthz', '/readyz', '/metrics']) await client(gw.url).get(path);
    expect(await counted()).toBe(before);
    expect(before).not.toMatch(/route="internal"/);
    expect((await client(gw.url).get('/favicon.ico')).status).toBe(404);
  });
});
