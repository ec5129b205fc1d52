import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway/server.js';
import { createTranslator } from '../../src/translate/index.js';
import { mappingsWithBrokenL6Fee } from '../helpers/broken-mapping.js';
import { client } from '../helpers/http.js';
import { logPath, logStream } from '../helpers/logs.js';
import { jwt, KEYS, legacyOrder, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const SOLO = { 'Limepay-SecretKey': KEYS.soloSk };

async function shadowGateway(
  extra: Record<string, unknown> = {},
  translator?: ReturnType<typeof createTranslator>,
  upstreams?: object,
) {
  const config = loadConfig({
    file: {
      listen: { host: '127.0.0.1', port: 0 },
      logLevel: 'info',
      upstreams: upstreams ?? { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'shadow' },
      ...extra,
      shadow: { readyAfter: 1, learnSample: 0, ...((extra.shadow as object) ?? {}) },
    },
  });
  const gateway = await createGateway({
    config,
    logStream: logStream('gateway-shadow'),
    ...(translator ? { translator } : {}),
  });
  const url = await gateway.listen();
  return {
    gateway,
    url,
    close: () => gateway.close(),
    report: async () => (await gateway.shadow.idle(), gateway.shadow.ledger.report()),
  };
}

describe('shadow comparisons', () => {
  it('shows a deliberately broken mapping as a mismatch at the exact JSON path', async () => {
    // L6 with fee taken from the fixed fee instead of the total: a mapping bug
    const gw = await shadowGateway({}, createTranslator({ mappings: mappingsWithBrokenL6Fee() }));
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      const served = await client(gw.url, SOLO).get(`/transactions/${tx}`);
      expect(served.body.fee).toBe(226); // the client still gets the legacy upstream's answer
      const l6 = (await gw.report()).routes.find((r) => r.route === 'L6')!;
      expect(l6.matchRate).toBe(0);
      expect(l6.ready).toBe(false);
      expect(l6.topDiffs).toEqual([
        { path: 'fee', count: 1, example: { requestId: expect.any(String), primary: 226, candidate: 30 } },
      ]);
    } finally {
      await gw.close();
    }
  });

  it('writes the request headers, redacted, into the record of a mismatch, and only the request line into a match', async () => {
    const files = {
      mismatch: logPath('shadow-headers-mismatch', 'jsonl'),
      match: logPath('shadow-headers-match', 'jsonl'),
    };
    const broken = await shadowGateway(
      { shadow: { log: files.mismatch } },
      createTranslator({ mappings: mappingsWithBrokenL6Fee() }),
    );
    const plain = await shadowGateway({ shadow: { log: files.match } });
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      for (const gw of [broken, plain]) {
        expect(
          (
            await client(gw.url, { ...SOLO, 'user-agent': 'WordPress/6.4; https://shop.example' }).get(
              `/transactions/${tx}`,
            )
          ).status,
        ).toBe(200);
        await gw.gateway.shadow.idle();
      }
      const [mismatch, match] = [files.mismatch, files.match].map((file) =>
        JSON.parse(readFileSync(file, 'utf8').trim()),
      );
      expect(mismatch.differences.map((d: { path: string }) => d.path)).toEqual(['fee']);
      expect(mismatch.request.headers).toMatchObject({
        'limepay-secretkey': '[redacted]',
        'user-agent': 'WordPress/6.4; https://shop.example',
      });
      expect(JSON.stringify(mismatch)).not.toContain(KEYS.soloSk);
      expect(match.differences).toEqual([]);
      expect(match.request).toEqual({ method: 'GET', path: `/transactions/${tx}` });
      expect(match.client).toBe('wordpress');
    } finally {
      await broken.close();
      await plain.close();
    }
  });

  it('does not report ids and timestamps two executions mint differently, nor learned noise', async () => {
    // an isolated candidate: a second sandbox, so a create is sent to both and ids/timestamps differ
    const isolated = await startSandbox();
    // a legacy upstream whose answers carry a field that changes on every call
    let noisyCalls = 0;
    const noisy = createServer(async (req, res) => {
      noisyCalls++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(`${sb.legacyUrl}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => k.startsWith('limepay-') || k === 'content-type'),
        ) as Record<string, string>,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      const text = await upstream.text();
      const body = text ? JSON.parse(text) : undefined;
      const out =
        body && typeof body === 'object'
          ? JSON.stringify({ ...body, servedBy: `node-${Math.random().toString(36).slice(2, 8)}` })
          : text;
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(out);
    });
    await new Promise<void>((r) => noisy.listen(0, '127.0.0.1', r));
    const noisyUrl = `http://127.0.0.1:${(noisy.address() as AddressInfo).port}`;
    const gw = await shadowGateway(
      { shadow: { candidateIsolated: true, writeSafety: { L1: 'send', L11: 'send' }, learnSample: 1 } },
      undefined,
      { sandbox: { current: isolated.currentUrl, legacy: sb.legacyUrl } },
    );
    // every read is read again to learn noise, up to two re-reads for the route
    const reads = await shadowGateway({ shadow: { learnSample: 1, learnReads: 2 } }, undefined, {
      sandbox: { current: sb.currentUrl, legacy: noisyUrl },
    });
    try {
      const before = isolated.sandbox.store.stats.ordersCreated;
      expect((await client(gw.url, SOLO).post('/orders', legacyOrder())).status).toBe(200);
      const l1 = (await gw.report()).routes.find((r) => r.route === 'L1')!;
      expect(isolated.sandbox.store.stats.ordersCreated).toBe(before + 1);
      expect(l1.methods).toEqual({ send: 1 });
      expect(l1.matchRate).toBe(1);
      expect(l1.explained.map((e) => [e.path, e.reason]).sort()).toEqual([
        ['createdAt', 'timestamp'],
        ['merchantOrderId', 'id'],
        ['updatedAt', 'timestamp'],
      ]);
      // the next write on that order reaches the candidate under the candidate's own id for it, paired by the create
      const created = (await client(gw.url, SOLO).post('/orders', legacyOrder())).body.merchantOrderId as string;
      expect(
        (await client(gw.url, SOLO).put(`/orders/${created}/internalOrderId`, { internalOrderId: 'renamed-1' })).status,
      ).toBe(200);
      const l11 = (await gw.report()).routes.find((r) => r.route === 'L11')!;
      expect({ methods: l11.methods, matchRate: l11.matchRate }).toEqual({ methods: { send: 1 }, matchRate: 1 });
      expect(l11.explained.map((e) => [e.path, e.reason])).toContainEqual(['merchantOrderId', 'id']);
      expect(
        [...isolated.sandbox.store.orders.values()].filter((o) => o.referenceOrderId === 'renamed-1'),
      ).toHaveLength(1);

      const order = (await sb.legacy('Limepay-SecretKey', KEYS.soloSk).post('/orders', legacyOrder())).body
        .merchantOrderId;
      for (let i = 0; i < 3; i++) expect((await client(reads.url, SOLO).get(`/orders/${order}`)).status).toBe(200);
      const l3 = (await reads.report()).routes.find((r) => r.route === 'L3')!;
      expect(l3.compared).toBe(3);
      // three served reads and two re-reads: the third comparison made no call to the legacy upstream of its own
      expect(noisyCalls).toBe(5);
      expect(l3.matchRate).toBe(1);
      expect(l3.learnedNoise).toEqual([
        {
          route: 'L3',
          path: 'servedBy',
          evidence: {
            requestId: expect.any(String),
            time: expect.any(String),
            first: expect.stringMatching(/^node-/),
            second: expect.stringMatching(/^node-/),
          },
        },
      ]);
      expect(l3.explained).toEqual([{ path: 'servedBy', reason: 'learned', count: 3 }]);
    } finally {
      await gw.close();
      await reads.close();
      await isolated.close();
      noisy.close();
    }
  });

  it('matches a legacy answer of the same values in another key order and spacing, read after read', async () => {
    // a legacy upstream that writes the legacy face's answers with their keys reversed, indented
    const reordered = createServer(async (req, res) => {
      const upstream = await fetch(`${sb.legacyUrl}${req.url}`, {
        headers: { 'limepay-secretkey': String(req.headers['limepay-secretkey']) },
      });
      const body = (await upstream.json()) as Record<string, unknown>;
      const out = Object.fromEntries(Object.entries(body).reverse());
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(out, null, 2));
    });
    await new Promise<void>((r) => reordered.listen(0, '127.0.0.1', r));
    const gw = await shadowGateway({}, undefined, {
      sandbox: { current: sb.currentUrl, legacy: `http://127.0.0.1:${(reordered.address() as AddressInfo).port}` },
    });
    const plain = await shadowGateway();
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      for (const g of [gw, plain]) {
        for (let i = 0; i < 3; i++) expect((await client(g.url, SOLO).get(`/transactions/${tx}`)).status).toBe(200);
        const l6 = (await g.report()).routes.find((r) => r.route === 'L6')!;
        expect({ compared: l6.compared, matchRate: l6.matchRate, topDiffs: l6.topDiffs }).toEqual({
          compared: 3,
          matchRate: 1,
          topDiffs: [],
        });
      }
    } finally {
      await Promise.all([gw.close(), plain.close(), new Promise((r) => reordered.close(r))]);
    }
  });

  it('never sends a write to the other generation unless the candidate is isolated and the key is sandbox_', async () => {
    const isolated = await startSandbox();
    const gw = await shadowGateway({ shadow: { candidateIsolated: true, writeSafety: { '*': 'send' } } }, undefined, {
      sandbox: { current: isolated.currentUrl, legacy: sb.legacyUrl },
      live: {},
    });
    try {
      const before = isolated.sandbox.store.stats.ordersCreated;
      const merchantJwt = { 'Limepay-MerchantJwt': jwt('merchant', 'mcht_solo') };
      expect((await client(gw.url, merchantJwt).post('/orders', legacyOrder())).status).toBe(200);
      const l1 = (await gw.report()).routes.find((r) => r.route === 'L1')!;
      expect(l1.methods).toEqual({ readback: 1 });
      expect(isolated.sandbox.store.stats.ordersCreated).toBe(before);
    } finally {
      await gw.close();
      await isolated.close();
    }
  });

  it('refuses send at start-up unless the candidate is declared isolated', () => {
    expect(() => loadConfig({ file: { shadow: { writeSafety: { L7: 'send' } } } })).toThrow(
      /shadow\.writeSafety\.L7: send is allowed only when shadow\.candidateIsolated/,
    );
  });

  it('validates instead of sending when a route says validate', async () => {
    const gw = await shadowGateway({ shadow: { writeSafety: { L1: 'validate' } } });
    try {
      expect((await client(gw.url, SOLO).post('/orders', legacyOrder())).status).toBe(200);
      const l1 = (await gw.report()).routes.find((r) => r.route === 'L1')!;
      expect(l1).toMatchObject({ methods: { validate: 1 }, matchRate: 1 });
    } finally {
      await gw.close();
    }
  });

  it('serves the translated answer in canary mode and compares the legacy one', async () => {
    const gw = await shadowGateway({ routes: { '*': 'canary' } });
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      const before = sb.sandbox.store.stats.refundsCreated;
      expect((await client(gw.url, SOLO).get(`/transactions/${tx}`)).status).toBe(200);
      expect(
        (
          await client(gw.url, SOLO).post('/refunds', {
            transactionId: tx,
            refundAmount: { amount: 100, currency: 'AUD' },
          })
        ).status,
      ).toBe(200);
      const report = await gw.report();
      expect(report.routes.map((r) => [r.route, r.modes, r.matchRate, Object.keys(r.methods)])).toEqual([
        ['L6', ['canary'], 1, ['compare']],
        ['L7', ['canary'], 1, ['readback']],
      ]);
      expect(sb.sandbox.store.stats.refundsCreated).toBe(before + 1);
      expect((await client(gw.url).get('/metrics')).text).toMatch(
        /paybridge_requests_total\{route="L6",mode="canary",status="200"\} 1/,
      );
    } finally {
      await gw.close();
    }
  });

  it('compares the configured share of requests (--shadow-sample)', async () => {
    const gw = await shadowGateway({ shadow: { sample: { '*': 0.1 } } });
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      for (let i = 0; i < 300; i++) expect((await client(gw.url, SOLO).get(`/transactions/${tx}`)).status).toBe(200);
      const l6 = (await gw.report()).routes.find((r) => r.route === 'L6')!;
      // binomial(300, 0.1): mean 30, this bound fails about once in a million runs
      expect(l6.compared).toBeGreaterThan(8);
      expect(l6.compared).toBeLessThan(60);
    } finally {
      await gw.close();
    }
  });

  it('drops comparisons when the queue is full and counts them, never failing the client', async () => {
    const gw = await shadowGateway({ shadow: { queueSize: 1, concurrency: 1 } });
    try {
      const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => client(gw.url, SOLO).get(`/transactions/${tx}`)),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const report = await gw.report();
      expect(report.totals.dropped).toBeGreaterThan(0);
      expect(report.totals.compared + report.totals.dropped).toBe(30);
      expect((await client(gw.url).get('/metrics')).text).toMatch(
        /paybridge_shadow_dropped_total\{route="L6",reason="count"\} [1-9]/,
      );
    } finally {
      await gw.close();
    }
  });
});
