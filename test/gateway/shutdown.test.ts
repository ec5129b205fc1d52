/**
 * SIGTERM in shadow mode with a candidate slower than the shutdown budget: the gateway drains first
 * (/readyz answers 503 while it still serves), then finishes its clients, runs comparisons until its
 * budget is nearly spent, records every sampled exchange (compared, failed, or cut short by the
 * shutdown) and exits 0 before `shutdownMs`.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';
import { logPath } from '../helpers/logs.js';
import { KEYS } from '../helpers/sandbox.js';

/** A legacy upstream answering every order at once, and a current one that never answers. */
async function upstreams() {
  const sockets = new Set<import('node:net').Socket>();
  const legacy: Server = createServer((req, res) => {
    req.resume();
    const id = req.url!.split('/').pop();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ merchantOrderId: id, status: 'created', amount: 1000, currency: 'AUD' }));
  });
  const hanging: Server = createServer((req) => req.resume());
  hanging.on('connection', (s) => sockets.add(s));
  await Promise.all([legacy, hanging].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    legacy: url(legacy),
    current: url(hanging),
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([legacy, hanging].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

describe('shutdown in shadow mode', () => {
  it('drains with /readyz at 503, records every sampled exchange (compared, or cut short) and exits 0 before shutdownMs', async () => {
    const up = await upstreams();
    const records = logPath('shadow-shutdown', 'jsonl');
    const shutdownMs = 8_000;
    const gw = await spawnGateway([
      '--current-url',
      up.current,
      '--legacy-url',
      up.legacy,
      '--mode',
      '*=shadow',
      '--shadow-log',
      records,
      '--request-timeout-ms',
      '2500',
      '--client-request-timeout-ms',
      '1000',
      '--drain-ms',
      '2000',
      '--shutdown-timeout-ms',
      String(shutdownMs),
    ]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`${gw.url}/orders/ordr_shut${i}`, { headers: { 'Limepay-SecretKey': KEYS.soloSk } }).then(
            (r) => r.status,
          ),
        ),
      );
      expect(answers.every((s) => s === 200)).toBe(true);
      expect((await fetch(`${gw.url}/readyz`)).status).toBe(200);
      const signalled = Date.now();
      gw.child.kill('SIGTERM');
      // draining (the signal handled): still serving, but no longer ready; its first answer other than 200 is a 503
      let ready = 200;
      await vi.waitFor(async () => expect((ready = (await fetch(`${gw.url}/readyz`)).status)).not.toBe(200), {
        timeout: 10_000,
        interval: 10,
      });
      expect(ready).toBe(503);
      expect(
        (await fetch(`${gw.url}/orders/ordr_late`, { headers: { 'Limepay-SecretKey': KEYS.soloSk } })).status,
      ).toBe(200);
      const code = await gw.exited;
      const took = Date.now() - signalled;
      expect(code).toBe(0);
      expect(took).toBeLessThan(shutdownMs);
      const lines = readFileSync(records, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; requestId: string; reason?: string });
      // 41 sampled exchanges (the one served while draining too), each with exactly one record
      expect(new Set(lines.map((l) => l.requestId)).size).toBe(41);
      expect(lines).toHaveLength(41);
      const reasons = lines.map((l) => l.reason ?? l.type);
      expect(reasons.filter((r) => r.startsWith('shutdown')).length).toBeGreaterThan(0);
      // the rest were compared: the candidate's 504 against the legacy 200
      expect(reasons.filter((r) => !r.startsWith('shutdown'))).toEqual(reasons.filter((r) => r === 'comparison'));
      expect(gw.stderr()).toMatch(/paybridge gateway stopped after \d+ ms/);
    } finally {
      await gw.stop();
      await up.close();
    }
  }, 20_000);
});
