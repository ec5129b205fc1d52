/**
 * A write the service took is never answered with a 5xx a client would repeat: when its 2xx answer
 * cannot be mapped back, the gateway answers 202 answer_incomplete ("do not repeat the call: read the
 * resource"). Here L24 (add a payout bank account): the service adds the account, and an origin in
 * front of it answers the PATCH with the merchant as it was before, so no account is new in the answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { routeCalls, sendCall } from '../helpers/route-calls.js';
import { KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let origin: Server;
let originUrl: string;
const patches: string[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  // forwards everything to the sandbox's current face; a PATCH of a merchant is forwarded (the account is
  // added) and answered with that merchant's last GET answer, which does not list the new account
  const lastMerchant = new Map<string, string>();
  origin = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length'),
      ) as Record<string, string>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void fetch(`${sb.currentUrl}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }).then(
        async (answer) => {
          const text = await answer.text();
          const merchant = /^\/merchants\/[^/?]+$/.exec(req.url ?? '')?.[0];
          if (merchant && req.method === 'GET' && answer.status === 200) lastMerchant.set(merchant, text);
          if (merchant && req.method === 'PATCH') patches.push(`${answer.status} ${merchant}`);
          const sent =
            merchant && req.method === 'PATCH' && answer.status === 200 ? (lastMerchant.get(merchant) ?? text) : text;
          res
            .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
            .end(sent);
        },
      );
    });
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => origin.close(r));
  await sb.close();
});

describe('a write whose 2xx answer cannot be mapped back', () => {
  it('L24: the account added, no account new in the answer: 202 answer_incomplete, sent once, never a 502', async () => {
    const call = await routeCalls(sb).prepare('L24');
    const gw = await startGateway({
      upstreams: { sandbox: { current: originUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'current' },
      serviceKey: KEYS.operator,
    });
    try {
      const merchantId = /\/marketplaces\/merchants\/([^/]+)\/accounts$/.exec(call.path)![1]!;
      const accounts = () => sb.sandbox.store.merchants.get(merchantId)!.bankAccounts.length;
      const before = accounts();
      const answer = await sendCall(gw.url, call, `write-answers-L24-${process.pid}`);
      expect(answer.status, answer.text).toBe(202);
      expect(legacyError.parse(answer.body)).toMatchObject({
        errorCode: 'answer_incomplete',
        detail: expect.stringContaining('L24'),
      });
      // the service took it once: one PATCH, one account more
      expect(patches).toHaveLength(1);
      expect(patches[0]).toMatch(/^200 /);
      expect(accounts()).toBe(before + 1);
    } finally {
      await gw.close();
    }
  });
});
