/**
 * Shadow mode tells the truth: a route reads ready only when cutting it over will work, and money
 * never moves twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway/server.js';
import type { ShadowReport } from '../../src/shadow/ledger.js';
import { defineMapping } from '../../src/translate/define.js';
import { createTranslator } from '../../src/translate/index.js';
import { send, hostOf } from '../clients/wire.js';
import { client } from '../helpers/http.js';
import { logPath, logStream } from '../helpers/logs.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { spawnBin } from '../helpers/spawn.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const OPERATOR = OPERATOR_TOKENS.replay;

/** L1 as a translator that has not learnt the deployed plugins' habits: `phoneNo: ""` is refused. */
function strictL1Translator() {
  const l1 = ALL_MAPPINGS.find((m) => m.route === 'L1')!;
  const strict = defineMapping({
    ...l1,
    body: (l1.body as z.ZodObject).extend({
      phoneNo: z
        .string()
        .regex(/^\+\d+$/, 'expected a phone number')
        .optional(),
    }),
  });
  return createTranslator({ mappings: ALL_MAPPINGS.map((m) => (m.route === 'L1' ? strict : m)) });
}

async function shadowGateway(input: Record<string, unknown>, translator?: ReturnType<typeof createTranslator>) {
  const config = loadConfig({
    file: { listen: { host: '127.0.0.1', port: 0 }, routes: { '*': 'shadow' }, operatorToken: OPERATOR, ...input },
  });
  const gateway = await createGateway({
    config,
    logStream: logStream('gateway-truth'),
    ...(translator ? { translator } : {}),
  });
  return { gateway, url: await gateway.listen() };
}

async function reportOf(gw: {
  gateway: Awaited<ReturnType<typeof createGateway>>;
  url: string;
}): Promise<ShadowReport> {
  await gw.gateway.shadow.idle();
  return (await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report')).body;
}

describe('a route is ready only when the translator accepts what the legacy upstream accepted', () => {
  it('reports a form-urlencoded plugin request the translator refuses as a mismatch at $translation, and ready once it is fixed', async () => {
    // the legacy upstream is lenient as the field's was (the sandbox's legacy face reads any body as JSON)
    const sb = await startSandbox();
    // WordPress's request: JSON declared as a form, an empty phone number
    const body = JSON.stringify(legacyOrder({ phoneNo: '' }));
    const wordpress = (url: string) =>
      send(url, {
        method: 'POST',
        path: '/orders',
        headers: [
          ['Host', hostOf(url)],
          ['0', 'Content-Type: application/json'],
          ['Limepay-SecretKey', KEYS.soloSk],
          ['Content-Type', 'application/x-www-form-urlencoded'],
          ['Content-Length', String(body.length)],
        ],
        body,
      });
    const upstreams = { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } };
    const before = await shadowGateway({ upstreams, shadow: { readyAfter: 3, learnSample: 0 } }, strictL1Translator());
    const after = await shadowGateway({ upstreams, shadow: { readyAfter: 3, learnSample: 0 } });
    try {
      for (let i = 0; i < 3; i++) expect((await wordpress(before.url)).status).toBe(200);
      const broken = (await reportOf(before)).routes.find((r) => r.route === 'L1')!;
      expect(broken.state).toBe('mismatch');
      expect(broken.ready).toBe(false);
      expect(broken.topDiffs[0]).toMatchObject({
        path: '$translation',
        count: 3,
        example: { primary: 'accepted (200)', candidate: expect.stringMatching(/^refused: invalid_request: phoneNo/) },
      });

      for (let i = 0; i < 3; i++) expect((await wordpress(after.url)).status).toBe(200);
      const fixed = (await reportOf(after)).routes.find((r) => r.route === 'L1')!;
      expect(fixed.topDiffs.filter((d) => d.path === '$translation')).toEqual([]);
      expect(fixed.state).toBe('ready');
      expect(fixed.methods).toMatchObject({ write: 3 });
    } finally {
      await before.gateway.close();
      await after.gateway.close();
      await sb.close();
    }
  });
});

describe('send never moves money twice', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('is refused at start-up with the embedded sandbox', async () => {
    const config = logPath('send-embedded', 'json');
    writeFileSync(
      config,
      JSON.stringify({ shadow: { writeSafety: { '*': 'send' }, candidateIsolated: true }, routes: { '*': 'shadow' } }),
    );
    const refused = spawnBin(['serve', '--port', '0', '--config', config]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/shadow\.writeSafety\.\*: send cannot be used with the embedded sandbox/);
  });

  it('stops sending after the first write when the candidate shares the primary store, and every pay and refund runs once', async () => {
    const sendRecords = logPath('shadow-send', 'jsonl');
    const gw = await shadowGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      shadow: {
        writeSafety: { '*': 'send' },
        candidateIsolated: true,
        learnSample: 0,
        log: sendRecords,
      },
    });
    const before = { ...sb.sandbox.store.stats };
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    try {
      for (let i = 0; i < 5; i++) {
        const order = (await api.post('/orders', legacyOrder())).body;
        const token = (
          await client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` }).post('/sandbox/card-tokens', {
            cardNumber: CARDS.ok,
          })
        ).body.paymentTokenId;
        const paid = (await api.post(`/orders/${order.merchantOrderId}/pay`, { paymentToken: token })).body;
        if (i < 3)
          expect(
            (
              await api.post('/refunds', {
                transactionId: paid.transactionId,
                refundAmount: { amount: 1_000, currency: 'AUD' },
              })
            ).status,
          ).toBe(200);
        await gw.gateway.shadow.idle();
      }
      const stats = sb.sandbox.store.stats;
      expect(stats.ordersCreated - before.ordersCreated).toBe(5);
      expect(stats.transactionsCreated - before.transactionsCreated).toBe(5);
      expect(stats.refundsCreated - before.refundsCreated).toBe(3);
      const metrics = (await client(gw.url).get('/metrics')).text;
      expect(metrics).toMatch(/^paybridge_shadow_send_stopped 1$/m);
      const report = await reportOf(gw);
      expect(report.routes.find((r) => r.route === 'L1')!.methods.send ?? 0).toBe(0);
      // each write not sent says why in its record: the isolation probe found the shared store before the first write
      const notes = readFileSync(sendRecords, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; route: string; note?: string })
        .filter((r) => r.type === 'comparison' && ['L1', 'L4', 'L7'].includes(r.route))
        .map((r) => r.note?.split(': ')[0]);
      expect(notes.length).toBe(13);
      expect(new Set(notes)).toEqual(new Set(['send stopped']));
    } finally {
      await gw.gateway.close();
    }
  });
});
