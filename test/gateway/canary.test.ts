/**
 * The percentage canary (`canary:N%`): a route serves N percent of its requests from the translation,
 * chosen by a stable hash of the order (or customer, merchant) a request is about, the rest from the
 * legacy upstream compared as in shadow mode. Under load 10% configured serves 10% within the binomial
 * noise, one order's calls take one side, every order is created and paid exactly once, and the share
 * served is in the metrics and the report.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedByTranslation } from '../../src/gateway/canary.js';
import type { ComparisonRecord } from '../../src/shadow/ledger.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';

const OPERATOR = OPERATOR_TOKENS.migration;

/** Whether `count` of `n` draws at probability `p` is within `sigmas` standard deviations of n*p. */
const withinNoise = (count: number, n: number, p: number, sigmas = 4.5) =>
  Math.abs(count - n * p) <= sigmas * Math.sqrt(n * p * (1 - p));

/** Runs `work(i)` for i < n, `concurrency` at a time. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await work(i);
    }),
  );
}

describe('the choice of side', () => {
  it('is the same for one key every time, spreads keys at the share, and a share raised keeps the keys it served', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `ordr_${i.toString(36)}x${(i * 7919).toString(36)}`);
    const at = (percent: number) => new Set(keys.filter((k) => servedByTranslation(percent, k)));
    const ten = at(10);
    expect(withinNoise(ten.size, keys.length, 0.1)).toBe(true);
    expect([...ten].every((k) => servedByTranslation(10, k))).toBe(true);
    const fifty = at(50);
    expect(withinNoise(fifty.size, keys.length, 0.5)).toBe(true);
    expect([...ten].filter((k) => !fifty.has(k))).toEqual([]);
    expect(at(0).size).toBe(0);
    expect(at(100).size).toBe(keys.length);
    // no key (canaryKey request): a draw per request, at the share all the same
    const drawn = Array.from({ length: 20_000 }, () => servedByTranslation(10, undefined)).filter(Boolean).length;
    expect(withinNoise(drawn, 20_000, 0.1)).toBe(true);
  });
});

describe('canary:10% under load', () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const records = logPath('canary-records', 'jsonl');
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'legacy', L1: 'canary:10%', L3: 'canary:10%', L4: 'canary:10%', L6: 'canary:10%' },
      routesByMerchant: { mcht_other: { L6: 'legacy' } },
      shadow: { log: records, sample: { '*': 1, L6: 0.05 }, learnSample: 0, queueSize: 100_000 },
      operatorToken: OPERATOR,
      logLevel: 'warn',
    });
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('serves 10% of 2,000 reads from the translation, within the noise, and the metrics and the report say so', async () => {
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    const statuses = new Map<number, number>();
    await pool(2_000, 16, async (i) => {
      const res = await api.get(`/transactions/tran_canary${i.toString(36)}`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
    // each read answered (unknown transactions: a 404 from either side), none failed
    expect([...statuses.keys()]).toEqual([404]);
    const metrics = (await client(gw.url).get('/metrics')).text;
    const served = (side: string) =>
      Number(
        new RegExp(`^paybridge_canary_requests_total\\{route="L6",served="${side}"\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1] ?? 0,
      );
    expect(served('translation') + served('legacy')).toBe(2_000);
    expect(withinNoise(served('translation'), 2_000, 0.1), `${served('translation')} of 2000`).toBe(true);
    // another merchant's L6 is legacy for it alone: not a canary request at all
    expect((await client(gw.url, { 'Limepay-SecretKey': KEYS.otherSk }).get('/transactions/tran_other1')).status).toBe(
      404,
    );
    const after = (await client(gw.url).get('/metrics')).text;
    expect(after).toMatch(
      new RegExp(`^paybridge_canary_requests_total\\{route="L6",served="legacy"\\} ${served('legacy')}$`, 'm'),
    );
    const report = (await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report')).body;
    expect(report.routes.find((r: { route: string }) => r.route === 'L6').canary).toEqual({
      percent: 10,
      translation: served('translation'),
      legacy: served('legacy'),
      served: served('translation') / 2_000,
    });
  }, 120_000);

  it('creates and pays 200 orders through canary:10% routes: each created and paid once, one order one side, compared on both', async () => {
    const before = { ...sb.sandbox.store.stats };
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    const card = client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
    const failures: string[] = [];
    await pool(200, 8, async (i) => {
      const order = await api.post('/orders', legacyOrder({ internalOrderId: `canary-${i}` }));
      if (order.status !== 200) return void failures.push(`create ${i}: ${order.status}`);
      const id = order.body.merchantOrderId as string;
      if ((await api.get(`/orders/${id}`)).status !== 200) failures.push(`read ${id}`);
      const token = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId;
      const paid = await api.post(`/orders/${id}/pay`, { paymentToken: token });
      if (paid.status !== 200) failures.push(`pay ${id}: ${paid.status} ${paid.text}`);
    });
    expect(failures).toEqual([]);
    const stats = sb.sandbox.store.stats;
    expect(stats.ordersCreated - before.ordersCreated).toBe(200);
    expect(stats.transactionsCreated - before.transactionsCreated).toBe(200);
    expect(stats.payAttempts - before.payAttempts).toBe(200);

    await gw.gateway.shadow.idle();
    const report = (await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report')).body;
    for (const route of ['L1', 'L3', 'L4']) {
      const r = report.routes.find((x: { route: string }) => x.route === route);
      expect(r.canary.translation + r.canary.legacy, route).toBe(200);
      expect(withinNoise(r.canary.translation, 200, 0.1), `${route}: ${r.canary.translation} of 200`).toBe(true);
      // both sides were compared: the translation's answers against legacy (canary), legacy's against the translation (shadow)
      expect(new Set(r.modes), route).toEqual(new Set(['canary', 'shadow']));
      expect(r.state, `${route}: ${r.verdict}`).not.toBe('mismatch');
    }
    // one order, one side: its read (L3) and its pay (L4) were answered by the same generation
    const sides = new Map<string, Set<string>>();
    for (const line of readFileSync(records, 'utf8').trim().split('\n')) {
      const record = JSON.parse(line) as ComparisonRecord;
      if (record.type !== 'comparison' || (record.route !== 'L3' && record.route !== 'L4')) continue;
      const order = /\/orders\/(ordr_[^/?]+)/.exec(record.request.path)?.[1];
      if (order) sides.set(order, (sides.get(order) ?? new Set()).add(record.mode));
    }
    expect(sides.size).toBeGreaterThan(150);
    expect([...sides].filter(([, modes]) => modes.size > 1)).toEqual([]);
  }, 180_000);
});

describe('a percentage canary for one merchant', () => {
  it("splits that merchant's requests of the route at its share and leaves the others' to the route's own mode", async () => {
    const sb = await startSandbox();
    const gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'legacy' },
      routesByMerchant: { mcht_solo: { L3: 'canary:50%' } },
      shadow: { sample: { '*': 0 } },
      logLevel: 'warn',
    });
    try {
      const solo = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
      const other = client(gw.url, { 'Limepay-SecretKey': KEYS.otherSk });
      await pool(400, 16, async (i) => {
        expect((await solo.get(`/orders/ordr_pilot${i.toString(36)}`)).status).toBe(404);
        if (i % 4 === 0) expect((await other.get(`/orders/ordr_other${i.toString(36)}`)).status).toBe(404);
      });
      const metrics = (await client(gw.url).get('/metrics')).text;
      const served = (side: string) =>
        Number(
          new RegExp(`^paybridge_canary_requests_total\\{route="L3",served="${side}"\\} (\\d+)$`, 'm').exec(
            metrics,
          )?.[1],
        );
      // the other merchant's 100 reads went straight to the legacy upstream: no canary request
      expect(served('translation') + served('legacy')).toBe(400);
      expect(withinNoise(served('translation'), 400, 0.5), `${served('translation')} of 400`).toBe(true);
    } finally {
      await gw.close();
      await sb.close();
    }
  }, 60_000);
});
