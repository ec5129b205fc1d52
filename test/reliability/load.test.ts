/**
 * Load: mixed legacy traffic (create, pay, refund, reads) from 100 concurrent clients through the
 * gateway process to the sandbox, 5 s in CI (60 s with HEAVY_TESTS=1). No errors; every order and
 * refund answered 2xx exists exactly once in the sandbox; the gateway's RSS growth is bounded. Then the
 * same in shadow mode, every exchange compared on the sandbox's current face over the same store: what
 * the comparisons send there is counted too, so a write sent to the compared side would be a second one.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';
import { writeSummary } from '../helpers/logs.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import type { Spawned } from '../helpers/spawn.js';

const HEAVY = process.env.HEAVY_TESTS === '1';
const SECONDS = HEAVY ? 60 : 5;
const CLIENTS = 100;
// RSS is what V8 reserved, not what is live (a profile of the shadow run: +15 MB of heap in use after
// GC, +70 MB of RSS on Node 20, about twice that on Node 24 and 26): the bound catches a leak or an
// unbounded queue (hundreds of MB), not an allocator's appetite.
const RSS_BOUND_MB = HEAVY ? 400 : 256;
const SETTLE_MS = 3_000;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

interface LoadResult {
  requests: number;
  errors: string[];
  orders: string[];
  payments: string[];
  refunds: string[];
  rssGrowthMb: number;
  perSecond: number;
}

async function tokens(count: number): Promise<string[]> {
  const api = sb.current(KEYS.soloSk);
  const out: string[] = [];
  for (let i = 0; i < count; i += 50)
    out.push(
      ...(await Promise.all(
        Array.from(
          { length: Math.min(50, count - i) },
          async () => (await api.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId as string,
        ),
      )),
    );
  return out;
}

async function drive(gw: Spawned & { url: string }, available: string[]): Promise<LoadResult> {
  const pool = new Pool(gw.url, { connections: CLIENTS });
  const headers = { 'limepay-secretkey': KEYS.soloSk, 'content-type': 'application/json' };
  const result: LoadResult = {
    requests: 0,
    errors: [],
    orders: [],
    payments: [],
    refunds: [],
    rssGrowthMb: 0,
    perSecond: 0,
  };
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> => {
    result.requests++;
    try {
      const res = await pool.request({
        method,
        path,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) {
        result.errors.push(`${method} ${path} -> ${res.statusCode} ${text.slice(0, 160)}`);
        return undefined;
      }
      return JSON.parse(text);
    } catch (err) {
      result.errors.push(`${method} ${path} -> ${(err as Error).message}`);
      return undefined;
    }
  };
  const rssBefore = rssMb(gw.child.pid!);
  const deadline = Date.now() + SECONDS * 1000;
  const client = async () => {
    while (Date.now() < deadline) {
      const order = await call('POST', '/orders', legacyOrder());
      if (!order) continue;
      result.orders.push(order.merchantOrderId);
      const token = available.pop();
      if (token) {
        const paid = await call('POST', `/orders/${order.merchantOrderId}/pay`, { paymentToken: token });
        if (paid) {
          result.payments.push(paid.transactionId);
          const refund = await call('POST', '/refunds', {
            transactionId: paid.transactionId,
            refundAmount: { amount: 1_000, currency: 'AUD' },
          });
          if (refund) result.refunds.push(refund.refundId);
          await call('GET', `/transactions/${paid.transactionId}`);
        }
      }
      await call('GET', `/orders/${order.merchantOrderId}`);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  result.perSecond = Math.round(result.requests / ((Date.now() - started) / 1000));
  // what stays: measured once the load is over and the gateway had a moment to collect its garbage
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  result.rssGrowthMb = rssMb(gw.child.pid!) - rssBefore;
  await pool.close();
  return result;
}

/** Every 2xx create, pay and refund exists exactly once in the sandbox, and nothing else was created. */
function checkExactlyOnce(result: LoadResult, before: typeof sb.sandbox.store.stats): void {
  const store = sb.sandbox.store;
  expect(new Set(result.orders).size).toBe(result.orders.length);
  expect(result.orders.every((id) => store.orders.has(id))).toBe(true);
  expect(store.stats.ordersCreated - before.ordersCreated).toBe(result.orders.length);
  expect(new Set(result.payments).size).toBe(result.payments.length);
  expect(result.payments.every((id) => store.transactions.get(id)?.refundIds.length === 1)).toBe(true);
  expect(store.stats.transactionsCreated - before.transactionsCreated).toBe(result.payments.length);
  expect(new Set(result.refunds).size).toBe(result.refunds.length);
  expect(result.refunds.every((id) => store.refunds.has(id))).toBe(true);
  expect(store.stats.refundsCreated - before.refundsCreated).toBe(result.refunds.length);
}

describe(`load: ${CLIENTS} clients for ${SECONDS} s`, () => {
  const summaries: string[] = [];
  afterAll(() => writeSummary('3-load', summaries.join('\n')));

  it(
    'answers mixed legacy traffic without errors, every order and refund exactly once, RSS bounded',
    async () => {
      const gw = await spawnGateway([
        '--current-url',
        sb.currentUrl,
        '--legacy-url',
        sb.legacyUrl,
        '--log-level',
        'warn',
      ]);
      try {
        const available = await tokens(HEAVY ? 40_000 : 4_000);
        const before = { ...sb.sandbox.store.stats };
        const result = await drive(gw, available);
        expect(result.errors.slice(0, 5)).toEqual([]);
        expect(result.orders.length).toBeGreaterThan(100);
        checkExactlyOnce(result, before);
        expect(result.rssGrowthMb).toBeLessThan(RSS_BOUND_MB);
        summaries.push(
          `load: ${result.requests} requests in ${SECONDS} s (${result.perSecond}/s, ${CLIENTS} clients): 0 errors; ${result.orders.length} orders, ${result.payments.length} pays, ${result.refunds.length} refunds each exactly once in the sandbox; gateway RSS ${result.rssGrowthMb >= 0 ? '+' : ''}${result.rssGrowthMb.toFixed(0)} MB`,
        );
      } finally {
        await gw.stop();
      }
    },
    (SECONDS + 60) * 1000,
  );

  it(
    'in shadow mode, compared on the same store, answers as before and every order, pay and refund still exists exactly once',
    async () => {
      const gw = await spawnGateway([
        '--current-url',
        sb.currentUrl,
        '--legacy-url',
        sb.legacyUrl,
        '--mode',
        '*=shadow',
        '--log-level',
        'warn',
      ]);
      try {
        const available = await tokens(HEAVY ? 40_000 : 4_000);
        const before = { ...sb.sandbox.store.stats };
        const result = await drive(gw, available);
        expect(result.errors.slice(0, 5)).toEqual([]);
        checkExactlyOnce(result, before);
        expect(result.rssGrowthMb).toBeLessThan(RSS_BOUND_MB);
        const metrics = await (await fetch(`${gw.url}/metrics`)).text();
        const sum = (pattern: RegExp) => [...metrics.matchAll(pattern)].reduce((s, m) => s + Number(m[1]), 0);
        const compared = sum(/^paybridge_shadow_comparisons_total\{[^}]*\} (\d+)$/gm);
        const writes = sum(/^paybridge_shadow_comparisons_total\{route="L(?:1|4|7)",[^}]*\} (\d+)$/gm);
        const dropped = sum(/^paybridge_shadow_dropped_total\{[^}]*\} (\d+)$/gm);
        // the compared side was up and used, the writes among what it compared
        expect(writes).toBeGreaterThan(0);
        summaries.push(
          `load, shadow mode compared on the same store: ${result.requests} requests (${result.perSecond}/s): 0 errors, ${result.orders.length} orders, ${result.payments.length} pays and ${result.refunds.length} refunds exactly once; ${compared} comparisons (${writes} of writes), ${dropped} dropped; gateway RSS ${result.rssGrowthMb >= 0 ? '+' : ''}${result.rssGrowthMb.toFixed(0)} MB`,
        );
      } finally {
        await gw.stop();
      }
    },
    (SECONDS + 60) * 1000,
  );
});
