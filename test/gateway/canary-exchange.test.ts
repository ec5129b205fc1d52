/**
 * One percentage-canary exchange, side by side: a body the gateway read to choose a side (an order's
 * create names its `internalOrderId`) reaches whichever side serves it whole, sampled or not; the
 * translation's answer is what the canary comparison records (status, latency within the request's
 * own time); and the comparison queue counts the answer's bytes against its bound.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedByTranslation } from '../../src/gateway/canary.js';
import type { ComparisonRecord } from '../../src/shadow/ledger.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** This run's own references: a records file another run (a mutation run, a rerun) wrote to holds other ones. */
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;

/** The first of `prefix-0`, `prefix-1`, ... a 50% canary serves from `side`. */
const keyServedBy = (side: 'translation' | 'legacy', prefix: string) => {
  for (let i = 0; ; i++)
    if (servedByTranslation(50, `${prefix}-${i}`) === (side === 'translation')) return `${prefix}-${i}`;
};

let sb: TestSandbox;
let sampled: Awaited<ReturnType<typeof startGateway>>;
let unsampled: Awaited<ReturnType<typeof startGateway>>;
let bounded: Awaited<ReturnType<typeof startGateway>>;
const records = logPath('canary-exchange-records', 'jsonl');
const boundedRecords = logPath('canary-exchange-bounded', 'jsonl');
beforeAll(async () => {
  sb = await startSandbox();
  const upstreams = { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } };
  const routes = { '*': 'legacy', L1: 'canary:50%', L3: 'canary:50%' } as const;
  sampled = await startGateway({
    upstreams,
    routes,
    shadow: { log: records, sample: { '*': 1 }, learnSample: 0 },
    logLevel: 'warn',
  });
  bounded = await startGateway({
    upstreams,
    routes,
    shadow: { log: boundedRecords, sample: { '*': 1 }, learnSample: 0, queueBytes: 1024 },
    logLevel: 'warn',
  });
  unsampled = await startGateway({ upstreams, routes, shadow: { sample: { '*': 0 } }, logLevel: 'warn' });
});
afterAll(async () => {
  await sampled.close();
  await unsampled.close();
  await bounded.close();
  await sb.close();
});

const comparisons = (file = records) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ComparisonRecord)
    .filter((r) => r.type === 'comparison');

/** The order the sandbox's legacy face shows for this reference, read straight from it. */
async function orderOf(id: string) {
  return (await client(sb.legacyUrl, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/orders/${id}`)).body;
}

describe('a body read to choose the side', () => {
  it.each([
    ['the translation', 'translation', () => sampled],
    ['the legacy upstream, sampled', 'legacy', () => sampled],
    ['the legacy upstream, not sampled', 'legacy', () => unsampled],
  ] as const)('reaches %s whole', async (_name, side, gateway) => {
    const reference = keyServedBy(side, `canary-read-${RUN}-${side}-${gateway() === sampled ? 's' : 'u'}`);
    const started = performance.now();
    const res = await client(gateway().url, { 'Limepay-SecretKey': KEYS.soloSk }).post(
      '/orders',
      legacyOrder({ internalOrderId: reference, description: 'Read once, sent whole' }),
    );
    const elapsed = performance.now() - started;
    expect(res.status, res.text).toBe(200);
    const order = await orderOf(res.body.merchantOrderId as string);
    expect(order).toMatchObject({ internalOrderId: reference, description: 'Read once, sent whole' });
    expect(order).toMatchObject({ amount: 10_000, currency: 'AUD' });
    if (gateway() !== sampled) return;
    await sampled.gateway.shadow.idle();
    const record = comparisons().find(
      (r) =>
        r.route === 'L1' && (r.request.body as { internalOrderId?: string } | undefined)?.internalOrderId === reference,
    );
    // the translation's answer is the canary's primary; legacy's is the shadow's
    expect(record?.mode).toBe(side === 'translation' ? 'canary' : 'shadow');
    expect(record!.primary.status).toBe(200);
    expect(record!.primary.latencyMs).toBeGreaterThanOrEqual(0);
    expect(record!.primary.latencyMs).toBeLessThanOrEqual(elapsed);
  });
});

describe("the comparison queue's byte bound", () => {
  it("counts the translation's answer: one over 1 KiB is dropped by bytes, a short one is compared", async () => {
    const api = client(bounded.url, { 'Limepay-SecretKey': KEYS.soloSk });
    const direct = client(sb.legacyUrl, { 'Limepay-SecretKey': KEYS.soloSk });
    // an order whose id the translation serves, its answer over the queue's 1,024 bytes
    let id: string | undefined;
    for (let i = 0; id === undefined; i++) {
      const made = await direct.post('/orders', legacyOrder({ internalOrderId: `canary-bytes-${RUN}-${i}` }));
      expect(made.status).toBe(200);
      if (servedByTranslation(50, made.body.merchantOrderId as string)) id = made.body.merchantOrderId as string;
    }
    const dropped = async () =>
      Number(
        /^paybridge_shadow_dropped_total\{route="L3",reason="bytes"\} (\d+)$/m.exec(
          (await client(bounded.url).get('/metrics')).text,
        )?.[1] ?? 0,
      );
    const before = await dropped();
    const read = await api.get(`/orders/${id}`);
    expect(read.status).toBe(200);
    expect(read.text.length).toBeGreaterThan(1024);
    await bounded.gateway.shadow.idle();
    expect(await dropped()).toBe(before + 1);
    // an unknown order's 404 is short: compared
    const unknown = keyServedBy('translation', `ordr_canaryunknown${RUN}`);
    const started = performance.now();
    expect((await api.get(`/orders/${unknown}`)).status).toBe(404);
    const elapsed = performance.now() - started;
    await bounded.gateway.shadow.idle();
    expect(await dropped()).toBe(before + 1);
    const record = comparisons(boundedRecords).find((r) => r.route === 'L3' && r.request.path === `/orders/${unknown}`);
    // the translation's answer is the canary's primary, its latency within the request's own time
    // against legacy's own answer, read as the JSON it is: the two differ in nothing but noise (the tracer)
    expect(record).toMatchObject({ mode: 'canary', primary: { status: 404 }, candidate: { status: 404 } });
    expect(record!.differences.filter((d) => !d.noise)).toEqual([]);
    expect(record!.primary.latencyMs).toBeGreaterThanOrEqual(0);
    expect(record!.primary.latencyMs).toBeLessThanOrEqual(elapsed);
  });
});

describe('the translation side of a sampled canary exchange', () => {
  it('failing is a 502 to the client, compared as answered: a mismatch at $status, never a match', async () => {
    const failedRecords = logPath('canary-exchange-failed', 'jsonl');
    const broken = await startGateway({
      // no current API where the translation sends its calls
      upstreams: { sandbox: { current: 'http://127.0.0.1:1', legacy: sb.legacyUrl } },
      routes: { '*': 'legacy', L3: 'canary:50%' },
      shadow: { log: failedRecords, sample: { '*': 1 }, learnSample: 0 },
      logLevel: 'silent',
    });
    try {
      const id = keyServedBy('translation', `ordr_canaryfailed${RUN}`);
      const res = await client(broken.url, { 'Limepay-SecretKey': KEYS.soloSk, 'x-request-id': `${RUN}-failed` }).get(
        `/orders/${id}`,
      );
      expect(res.status).toBe(502);
      await broken.gateway.shadow.idle();
      const record = comparisons(failedRecords).find((r) => r.requestId === `${RUN}-failed`);
      expect(record).toMatchObject({ mode: 'canary', primary: { status: 502 }, candidate: { status: 404 } });
      expect(record!.differences).toContainEqual({ path: '$status', primary: 502, candidate: 404 });
      const report = broken.gateway.shadow.report().routes.find((r: { route: string }) => r.route === 'L3');
      expect(report?.state).toBe('mismatch');
    } finally {
      await broken.close();
    }
  });

  it('reading an empty chunked body it looked into for a key: refused naming the body, not a 500', async () => {
    // chunked, no chunk: a body declared and empty; the canary reads it to look for the order's reference
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${sampled.url}/orders`, {
        method: 'POST',
        headers: {
          'Limepay-SecretKey': KEYS.soloSk,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text: body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status, text).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ statusCode: 400, errorCode: 'invalid_request' });
  });
});
