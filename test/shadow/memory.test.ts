/**
 * The comparison queue is bounded by bytes as well as by count: a slow candidate and large bodies
 * (400 creates with 900 KB of metadata, 360 MB in all) keep what the queue holds under
 * `shadow.queueBytes` and the gateway's RSS growth bounded; what does not fit is dropped and counted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { call, client } from '../helpers/http.js';
import { KEYS, legacyOrder } from '../helpers/sandbox.js';

const QUEUE_BYTES = 8 * 1024 * 1024;

async function origin(delayMs: number) {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        if (!res.destroyed)
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"merchantOrderId":"ordr_mem1","status":"created"}');
      }, delayMs),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

let legacy: Awaited<ReturnType<typeof origin>>;
let slowCandidate: Awaited<ReturnType<typeof origin>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  legacy = await origin(0);
  slowCandidate = await origin(5_000);
  gw = await startGateway({
    upstreams: { sandbox: { current: slowCandidate.url, legacy: legacy.url } },
    routes: { '*': 'shadow' },
    timeouts: { requestMs: 6_000 },
    shadow: { queueBytes: QUEUE_BYTES, concurrency: 1, learnSample: 0 },
    logLevel: 'warn',
  });
});
afterAll(async () => {
  // the slow candidate goes first: its waiting calls fail at once and the queue drains
  await slowCandidate.close();
  await gw.close();
  await legacy.close();
});

const metric = (text: string, name: string) =>
  [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce((s, m) => s + Number(m[2]), 0);

describe('the comparison queue under large bodies and a slow candidate', () => {
  it('holds at most shadow.queueBytes, drops and counts the rest, and the client never waits', async () => {
    const metadata = { blob: 'x'.repeat(900 * 1024) };
    const body = JSON.stringify(legacyOrder({ metadata }));
    const rssBefore = process.memoryUsage().rss;
    let maxQueued = 0;
    for (let i = 0; i < 400; i++) {
      const res = await call(gw.url, 'POST', '/orders', { headers: { 'Limepay-SecretKey': KEYS.soloSk }, raw: body });
      expect(res.status).toBe(200);
      if (i % 25 === 0)
        maxQueued = Math.max(
          maxQueued,
          metric((await client(gw.url).get('/metrics')).text, 'paybridge_shadow_queue_bytes'),
        );
    }
    const metrics = (await client(gw.url).get('/metrics')).text;
    maxQueued = Math.max(maxQueued, metric(metrics, 'paybridge_shadow_queue_bytes'));
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(maxQueued).toBeLessThanOrEqual(QUEUE_BYTES);
    expect(metric(metrics, 'paybridge_shadow_dropped_total')).toBeGreaterThan(350);
    expect(metrics).toMatch(/paybridge_shadow_dropped_total\{route="L1",reason="bytes"\} \d+/);
    // 360 MB of bodies went through (held unbounded, the queue alone would be over 360 MB); RSS, which
    // also counts what V8 reserved while this process drove the load, stays far below that
    expect(rssGrowthMb).toBeLessThan(QUEUE_BYTES / 1024 / 1024 + 200);
  }, 60_000);
});
