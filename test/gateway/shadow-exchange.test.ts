/**
 * One sampled shadow exchange as the gateway's shadow route runs it, against the sandbox behind a
 * fault proxy: a write's place among the writes of its resource ends when its answer comes, or when
 * its call fails, so the next write of the same transaction is compared, not taken for a race; a
 * primary that failed is recorded as such and logged; a refused write is compared as the same error
 * through the mapping; an update compared after a later update landed is raced, and compared when the
 * later one moved nothing; the 3DS call that completes an authorise-only
 * pay is judged by the first call's authoriseOnly, whose place ended with its 403; a comparison's own current calls are counted
 * under route `shadow` when they fail; the record names the client by its user agent and carries the
 * primary's latency within the request's own time, its answer read as the JSON it is.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedByTranslation } from '../../src/gateway/canary.js';
import type { ComparisonRecord, SkippedRecord } from '../../src/shadow/ledger.js';
import { proxiedSandbox, type ProxiedSandbox } from '../helpers/fault-proxy.js';
import type { ModeSetting } from '../../src/config.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { CARDS, KEYS, legacyOrder } from '../helpers/sandbox.js';

/** This run's own request ids: a records file another run (a mutation run, a rerun) wrote to holds other ones. */
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;
const WOO = 'WordPress/6.4.2; https://shop.example';

/** The first of `prefix-0`, `prefix-1`, ... a 99% canary serves from the translation. */
const keyServedBy = (prefix: string) => {
  for (let i = 0; ; i++) if (servedByTranslation(99, `${prefix}-${i}`)) return `${prefix}-${i}`;
};

let proxied: ProxiedSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
const logs = logSink();
const records = logPath('shadow-exchange-records', 'jsonl');
type Gateway = Awaited<ReturnType<typeof startGateway>>;
type ShadowSettings = NonNullable<Parameters<typeof startGateway>[0]['shadow']>;

/** A gateway over the sandbox behind the fault proxies, every exchange sampled, its records in this file's log. */
const proxiedGateway = (routes: Record<string, ModeSetting>, shadow: ShadowSettings = {}) =>
  startGateway(
    {
      upstreams: { sandbox: { current: proxied.current.url, legacy: proxied.legacy.url } },
      routes,
      shadow: { log: records, sample: { '*': 1 }, learnSample: 0, ...shadow },
      logLevel: 'warn',
    },
    logs.stream,
  );

/** The merchant's client on `gateway`, its requests carrying `id`. */
const as = (gateway: Gateway, id: string) =>
  client(gateway.url, { 'Limepay-SecretKey': KEYS.soloSk, 'x-request-id': id });

beforeAll(async () => {
  proxied = await proxiedSandbox();
  gw = await proxiedGateway({ '*': 'shadow' });
});
afterAll(async () => {
  await gw.close();
  await proxied.close();
});

type ShadowRecord = ComparisonRecord | SkippedRecord;
const recordOf = (requestId: string): ShadowRecord | undefined =>
  readFileSync(records, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ShadowRecord)
    .find((r) => r.requestId === requestId);

/** One call through the gateway with its own request id, and how long the client waited for it. */
async function send(method: 'GET' | 'POST', path: string, id: string, body?: unknown) {
  const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, 'x-request-id': id, 'user-agent': WOO });
  const started = performance.now();
  const res = method === 'GET' ? await api.get(path) : await api.post(path, body);
  return { res, elapsed: performance.now() - started };
}

/** An order created and paid through the gateway: its transaction. */
async function paidTransaction(tag: string): Promise<string> {
  const order = await send(
    'POST',
    '/orders',
    `${RUN}-${tag}-create`,
    legacyOrder({ internalOrderId: `${RUN}-${tag}` }),
  );
  expect(order.res.status, order.res.text).toBe(200);
  const card = client(proxied.sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
  const token = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId as string;
  const id = order.res.body.merchantOrderId as string;
  const paid = await send('POST', `/orders/${id}/pay`, `${RUN}-${tag}-pay`, { paymentToken: token });
  expect(paid.res.status, paid.res.text).toBe(200);
  return paid.res.body.transactionId as string;
}

const refund = (transactionId: string, id: string) =>
  send('POST', '/refunds', id, { transactionId, refundAmount: { amount: 1_000, currency: 'AUD' } });

describe('a sampled shadow write', () => {
  it('ends its place among the writes of its transaction when answered: the next refund is compared, not raced', async () => {
    const transaction = await paidTransaction('twice');
    const first = await refund(transaction, `${RUN}-refund-1`);
    expect(first.res.status).toBe(200);
    await gw.gateway.shadow.idle();
    const second = await refund(transaction, `${RUN}-refund-2`);
    expect(second.res.status).toBe(200);
    await gw.gateway.shadow.idle();
    for (const [id, { elapsed }] of [
      [`${RUN}-refund-1`, first],
      [`${RUN}-refund-2`, second],
    ] as const) {
      const record = recordOf(id);
      expect(record?.type, JSON.stringify(record)).toBe('comparison');
      const compared = record as ComparisonRecord;
      // the legacy answer read as the JSON it is: the translation's answer for the state matches it
      expect(compared.differences.filter((d) => !d.noise)).toEqual([]);
      expect(compared.primary.latencyMs).toBeGreaterThanOrEqual(0);
      expect(compared.primary.latencyMs).toBeLessThanOrEqual(elapsed);
      expect(compared.client).toBe('wordpress');
      // judged on the state the current API shows: the transaction the refund names
      expect([compared.method, compared.note]).toEqual(['write', `state /transactions/${transaction}`]);
    }
  });

  it('whose primary failed is recorded and logged as such, and its place ends: the next refund is compared', async () => {
    const transaction = await paidTransaction('failed');
    proxied.legacy.plant((seen) => seen.id === `${RUN}-refund-lost`, 'resetBeforeHeaders');
    const lost = await refund(transaction, `${RUN}-refund-lost`);
    expect(lost.res.status).toBe(502);
    await gw.gateway.shadow.idle();
    expect(recordOf(`${RUN}-refund-lost`)).toMatchObject({
      type: 'skipped',
      reason: 'primary failed: upstream_error (502)',
    });
    gw.gateway.flushLogs();
    expect(
      logs.records().some((r) => r.requestId === `${RUN}-refund-lost` && r.msg === 'shadow primary call failed'),
    ).toBe(true);
    // the lost refund reached the store (its answer did not reach the client); the next one is judged on its own
    const next = await refund(transaction, `${RUN}-refund-next`);
    expect(next.res.status).toBe(200);
    await gw.gateway.shadow.idle();
    expect(recordOf(`${RUN}-refund-next`)?.type).toBe('comparison');
  });
});

describe('a shadowed write the legacy upstream refused', () => {
  it('is compared as the same error through the mapping, as a client would get it after cut-over', async () => {
    const order = await send(
      'POST',
      '/orders',
      `${RUN}-declined-create`,
      legacyOrder({ internalOrderId: `${RUN}-declined` }),
    );
    const card = client(proxied.sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
    const paymentToken = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.decline })).body
      .paymentTokenId as string;
    const id = order.res.body.merchantOrderId as string;
    const declined = await send('POST', `/orders/${id}/pay`, `${RUN}-declined-pay`, { paymentToken });
    expect(declined.res.status).toBeGreaterThanOrEqual(400);
    await gw.gateway.shadow.idle();
    expect(recordOf(`${RUN}-declined-pay`)).toMatchObject({
      type: 'comparison',
      method: 'write',
      note: 'the legacy error through the mapping',
      primary: { status: declined.res.status },
      candidate: { status: declined.res.status },
    });
  });
});

describe('two updates of one order, the first compared after the second landed', () => {
  it('the first is raced, not compared, when its state read shows the later write; compared when the later one moved nothing', async () => {
    // one comparison at a time: a comparison held keeps the next one waiting
    const serial = await proxiedGateway({ '*': 'shadow' }, { concurrency: 1 });
    try {
      const api = (id: string) => as(serial, id);
      const created = await api(`${RUN}-serial-create`).post(
        '/orders',
        legacyOrder({ internalOrderId: `${RUN}-serial` }),
      );
      const order = created.body.merchantOrderId as string;
      await serial.gateway.shadow.idle();
      // a read whose comparison (its current call held 1 s) keeps the updates' comparisons waiting
      proxied.current.plant((seen) => seen.id.startsWith(`${RUN}-serial-blocker`), { delayMs: 1_000 });
      expect((await api(`${RUN}-serial-blocker`).get('/orders/ordr_serialmissing')).status).toBe(404);
      for (const n of [1, 2])
        expect(
          (
            await api(`${RUN}-serial-update-${n}`).put(`/orders/${order}/internalOrderId`, {
              internalOrderId: `${RUN}-v${n}`,
            })
          ).status,
        ).toBe(200);
      await serial.gateway.shadow.idle();
      expect(recordOf(`${RUN}-serial-update-1`)).toMatchObject({
        type: 'skipped',
        reason: 'raced: a later write of the same resource was forwarded before the state was read',
      });
      expect(recordOf(`${RUN}-serial-update-2`)?.type).toBe('comparison');
      // a later write the legacy upstream refused moved nothing: the first is compared all the same
      proxied.current.plant((seen) => seen.id.startsWith(`${RUN}-serial-blocker-2`), { delayMs: 1_000 });
      expect((await api(`${RUN}-serial-blocker-2`).get('/orders/ordr_serialmissing')).status).toBe(404);
      const kept = await api(`${RUN}-serial-update-3`).put(`/orders/${order}/internalOrderId`, {
        internalOrderId: `${RUN}-v3`,
      });
      expect(kept.status).toBe(200);
      const refused = await api(`${RUN}-serial-update-4`).put(`/orders/${order}/internalOrderId`, {});
      expect(refused.status).toBe(400);
      await serial.gateway.shadow.idle();
      expect(recordOf(`${RUN}-serial-update-3`)?.type).toBe('comparison');
    } finally {
      await serial.close();
    }
  });
});

describe('authorise-only, then the 3DS call that completes it', () => {
  it("judges the second call by the first call's authoriseOnly: the first call's place ended when its 403 came", async () => {
    const order = await send('POST', '/orders', `${RUN}-3ds-create`, legacyOrder({ internalOrderId: `${RUN}-3ds` }));
    const id = order.res.body.merchantOrderId as string;
    const card = client(proxied.sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
    const paymentToken = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.threeDS })).body
      .paymentTokenId as string;
    const challenge = await send('POST', `/orders/${id}/pay`, `${RUN}-3ds-first`, {
      paymentToken,
      authoriseOnly: true,
    });
    expect(challenge.res.status, challenge.res.text).toBe(403);
    await gw.gateway.shadow.idle();
    const completed = await send('POST', `/orders/${id}/pay`, `${RUN}-3ds-second`, {
      paymentToken,
      paymentActionRequired: challenge.res.body.paymentActionRequired,
    });
    expect(completed.res.status, completed.res.text).toBe(200);
    expect(completed.res.body.transactionStatus).toBe('not_captured');
    await gw.gateway.shadow.idle();
    const record = recordOf(`${RUN}-3ds-second`) as ComparisonRecord;
    expect(record.type).toBe('comparison');
    expect(record.differences.filter((d) => !d.noise)).toEqual([]);
  });
});

describe('a canary write compared by reading the resource back through both generations', () => {
  it('is raced, not compared, when the read back shows a later write of the resource; compared when it does not', async () => {
    // the create served by the translation (its reference chosen so), the update straight to the current API;
    // one comparison at a time: a comparison held keeps the next one waiting
    const canary = await proxiedGateway({ '*': 'current', L1: 'canary:99%', L3: 'canary:99%' }, { concurrency: 1 });
    try {
      const create = async (tag: string) => {
        const reference = keyServedBy(`${RUN}-${tag}`);
        const res = await as(canary, `${RUN}-${tag}`).post('/orders', legacyOrder({ internalOrderId: reference }));
        expect(res.status, res.text).toBe(200);
        return res.body.merchantOrderId as string;
      };
      // alone: the two reads back agree, compared
      const alone = await create('readback-alone');
      await canary.gateway.shadow.idle();
      expect(recordOf(`${RUN}-readback-alone`)).toMatchObject({
        type: 'comparison',
        method: 'readback',
        note: `read back /orders/${alone}`,
      });
      // read back through both generations, each read under the exchange's id and its side
      expect(proxied.current.of(`${RUN}-readback-alone:readback-primary`)).toEqual([`GET /orders/${alone}`]);
      expect(proxied.legacy.of(`${RUN}-readback-alone:readback-candidate`)).toEqual([`GET /orders/${alone}`]);
      // a read whose comparison (its legacy call held 1 s) keeps the create's comparison waiting; the order updated meanwhile
      proxied.legacy.plant((seen) => seen.id.startsWith(`${RUN}-blocker`), { delayMs: 1_000 });
      const blocker = keyServedBy(`ordr_${RUN}blocker`);
      expect((await as(canary, `${RUN}-blocker`).get(`/orders/${blocker}`)).status).toBe(404);
      const id = await create('readback-raced');
      const updated = await client(canary.url, { 'Limepay-SecretKey': KEYS.soloSk }).put(
        `/orders/${id}/internalOrderId`,
        { internalOrderId: `${RUN}-renamed` },
      );
      expect(updated.status, updated.text).toBe(200);
      await canary.gateway.shadow.idle();
      expect(recordOf(`${RUN}-readback-raced`)).toMatchObject({
        type: 'skipped',
        reason: 'raced: the read back shows a later write of the same resource',
      });
    } finally {
      await canary.close();
    }
  });
});

describe('a sampled shadow read', () => {
  it('whose primary failed is a 502 to the client, recorded as such', async () => {
    // reset twice: a GET is sent once more after a reset
    proxied.legacy.plant((seen) => seen.id === `${RUN}-read-lost`, 'resetBeforeHeaders', 2);
    const lost = await send('GET', '/orders/ordr_readlost', `${RUN}-read-lost`);
    expect(lost.res.status).toBe(502);
    expect(lost.res.body).toMatchObject({ statusCode: 502, errorCode: 'upstream_error' });
    await gw.gateway.shadow.idle();
    expect(recordOf(`${RUN}-read-lost`)).toMatchObject({
      type: 'skipped',
      reason: 'primary failed: upstream_error (502)',
    });
  });

  it('answered 200 with an empty body by the legacy upstream reaches the client empty', async () => {
    const empty = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-length': '0' }).end();
    });
    await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
    const quiet = await startGateway({
      upstreams: {
        sandbox: {
          current: proxied.sb.currentUrl,
          legacy: `http://127.0.0.1:${(empty.address() as AddressInfo).port}`,
        },
      },
      routes: { '*': 'shadow' },
      shadow: { sample: { '*': 1 }, learnSample: 0 },
      logLevel: 'silent',
    });
    try {
      const res = await client(quiet.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/ordr_empty');
      expect([res.status, res.text]).toEqual([200, '']);
      await quiet.gateway.shadow.idle();
    } finally {
      await quiet.close();
      await new Promise((resolve) => empty.close(resolve));
    }
  });
});

describe('a write that failed where it was served, outside the state check', () => {
  it('validate: one the translation takes is not compared, one it refuses too is compared as two errors', async () => {
    const validating = await proxiedGateway({ '*': 'shadow' }, { writeSafety: { '*': 'validate' } });
    try {
      const api = (id: string) => as(validating, id);
      const order = (await api(`${RUN}-validate-create`).post('/orders', legacyOrder({ internalOrderId: `${RUN}-v` })))
        .body.merchantOrderId as string;
      const card = client(proxied.sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
      const paymentToken = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.decline })).body
        .paymentTokenId as string;
      expect(
        (await api(`${RUN}-validate-declined`).post(`/orders/${order}/pay`, { paymentToken })).status,
      ).toBeGreaterThanOrEqual(400);
      const refused = await api(`${RUN}-validate-refused`).put(`/orders/${order}/internalOrderId`, {});
      expect(refused.status).toBe(400);
      await validating.gateway.shadow.idle();
      expect(recordOf(`${RUN}-validate-declined`)).toMatchObject({ type: 'skipped', reason: 'primary write failed' });
      expect(recordOf(`${RUN}-validate-refused`)).toMatchObject({
        type: 'comparison',
        method: 'validate',
        primary: { status: 400 },
        candidate: { status: 400 },
      });
    } finally {
      await validating.close();
    }
  });

  it('canary: a write the translation refused is not compared; one with no read back is not either, and says so', async () => {
    const canary = await proxiedGateway({ '*': 'current', L11: 'canary:99%', L28: 'canary:99%' });
    try {
      const api = (id: string) => as(canary, id);
      const order = keyServedBy(`ordr_${RUN}canaryrefused`);
      expect((await api(`${RUN}-canary-refused`).put(`/orders/${order}/internalOrderId`, {})).status).toBe(400);
      const customer = await api(`${RUN}-canary-plugin`).post('/customers/plugin', {
        internalCustomerId: `${RUN}-plugin`,
        emailAddress: `${RUN}@shop.example`,
        givenName: 'Ada',
        familyName: 'Shopper',
      });
      expect(customer.status, customer.text).toBe(200);
      await canary.gateway.shadow.idle();
      expect(recordOf(`${RUN}-canary-refused`)).toMatchObject({ type: 'skipped', reason: 'primary write failed' });
      expect(recordOf(`${RUN}-canary-plugin`)).toMatchObject({ type: 'skipped', reason: 'no readback for this write' });
    } finally {
      await canary.close();
    }
  });
});

describe("a comparison's own current calls", () => {
  it('are counted under route shadow when they fail', async () => {
    const errors = async () =>
      [
        ...(await client(gw.url).get('/metrics')).text.matchAll(
          /^paybridge_upstream_errors_total\{route="shadow",[^}]*\} (\d+)$/gm,
        ),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    const before = await errors();
    // the comparison's read of the transaction (a GET: sent once more after a reset) reset both times
    proxied.current.plant(
      (seen) => seen.id.startsWith(`${RUN}-read`) && seen.method === 'GET',
      'resetBeforeHeaders',
      2,
    );
    const read = await send('GET', '/transactions/tran_shadowmissing', `${RUN}-read`);
    expect(read.res.status).toBe(404);
    await gw.gateway.shadow.idle();
    expect(await errors()).toBe(before + 1);
  });
});
