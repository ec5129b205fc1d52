/**
 * A verdict names its evidence: a write only validated reads "validated, not compared" and is never
 * ready (counted apart in Prometheus); a sampled exchange whose primary failed leaves a record; the
 * comparison series exist at 0 from the start; a restarted gateway reads its records back and reports
 * the same verdicts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowReport } from '../../src/shadow/ledger.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { KEYS, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const TOKEN = 'operator-token-evidence-0001';
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const reportOf = async (url: string) =>
  (await client(url, { authorization: `Bearer ${TOKEN}` }).get('/_paybridge/report')).body as ShadowReport;

describe('what a verdict rests on', () => {
  it('a write only validated is "validated, not compared", never ready, and counted apart in Prometheus', async () => {
    const gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'shadow' },
      operatorToken: TOKEN,
      shadow: { readyAfter: 2, learnSample: 0, writeSafety: { L28: 'validate' } },
    });
    try {
      const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
      for (let i = 0; i < 3; i++)
        expect(
          (await api.post('/customers/plugin', { emailAddress: `ev${i}@example.com`, givenName: 'Ev' })).status,
        ).toBe(200);
      await gw.gateway.shadow.idle();
      const l28 = (await reportOf(gw.url)).routes.find((r) => r.route === 'L28')!;
      expect(l28).toMatchObject({
        compared: 3,
        validatedOnly: 3,
        ready: false,
        state: 'validated',
        verdict: expect.stringMatching(/^validated, not compared/),
      });
      const metrics = (await client(gw.url).get('/metrics')).text;
      expect(metrics).toMatch(/^paybridge_shadow_comparisons_total\{route="L28",outcome="validated"\} 3$/m);
      expect(metrics).toMatch(/^paybridge_shadow_comparisons_total\{route="L28",outcome="match"\} 0$/m);
      // every route's series exist from the start, at 0
      expect(metrics).toMatch(/^paybridge_shadow_comparisons_total\{route="L27",outcome="mismatch"\} 0$/m);
    } finally {
      await gw.close();
    }
  });

  it('a sampled exchange whose primary failed leaves a record, and the route does not read as matching', async () => {
    const down: Server = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const gw = await startGateway({
      upstreams: {
        sandbox: { current: sb.currentUrl, legacy: `http://127.0.0.1:${(down.address() as AddressInfo).port}` },
      },
      routes: { '*': 'shadow' },
      operatorToken: TOKEN,
      shadow: { readyAfter: 1 },
    });
    try {
      const answer = await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/ordr_evidence1');
      expect(answer.status).toBe(502);
      await gw.gateway.shadow.idle();
      const l3 = (await reportOf(gw.url)).routes.find((r) => r.route === 'L3')!;
      expect(l3.skipped).toEqual({ 'primary failed: upstream_error (502)': 1 });
      expect(l3.ready).toBe(false);
      expect((await client(gw.url).get('/metrics')).text).toMatch(
        /^paybridge_shadow_skipped_total\{route="L3",reason="primary failed: upstream_error \(502\)"\} 1$/m,
      );
    } finally {
      await gw.close();
      await new Promise((r) => down.close(r));
    }
  });

  it('a restarted gateway reads its records back: the same verdicts', async () => {
    const log = logPath('shadow-restart', 'jsonl');
    const settings = {
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'shadow' as const },
      operatorToken: TOKEN,
      shadow: { log, readyAfter: 2, learnSample: 0 },
    };
    const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
    const first = await startGateway(settings);
    let before: ShadowReport;
    try {
      for (let i = 0; i < 2; i++)
        expect((await client(first.url, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/transactions/${tx}`)).status).toBe(
          200,
        );
      await first.gateway.shadow.idle();
      before = await reportOf(first.url);
    } finally {
      await first.close();
    }
    const second = await startGateway(settings);
    try {
      const after = await reportOf(second.url);
      const pick = (r: ShadowReport) => r.routes.map((x) => [x.route, x.compared, x.state]);
      expect(pick(after)).toEqual(pick(before));
      expect(pick(after)).toContainEqual(['L6', 2, 'ready']);
    } finally {
      await second.close();
    }
  });
});
