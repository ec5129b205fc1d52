/**
 * One deadline per request (timeouts.requestMs from the moment its headers arrive) on every path: the
 * body's reading, a merchant's look-ups (Get Merchant for a merchant token, Query Merchants for modes
 * set per merchant), a preflight read and the write after it all share it. Each case is slow in two
 * steps, each shorter than requestMs and together longer: under one deadline the client gets 504
 * upstream_timeout; a deadline started afresh by any step would let the request through. requestMs
 * is far below the look-ups' own timeouts (5 s).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { proxiedSandbox, type FaultProxy, type ProxiedSandbox } from '../helpers/fault-proxy.js';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { sendCall } from '../helpers/route-calls.js';
import { KEYS, legacyOrder } from '../helpers/sandbox.js';

/** Each slow step; two of them pass the deadline, one does not. */
const STEP_MS = 500;
const TIMEOUTS = { connectMs: 1_000, headersMs: 10_000, bodyMs: 10_000, requestMs: 800 };
const SOLO = { 'Limepay-SecretKey': KEYS.soloSk };

let proxied: ProxiedSandbox;
let calls: ProxiedSandbox['calls'];
let current: FaultProxy;
let legacy: FaultProxy;
let counter = 0;
const newId = (name: string) => `deadline-${name}-${process.pid}-${++counter}`;

beforeAll(async () => {
  proxied = await proxiedSandbox();
  ({ calls, current, legacy } = proxied);
});
afterAll(() => proxied.close());

/** A gateway in front of both proxies with `input`, for one test. */
async function withGateway(input: ConfigInput, run: (url: string) => Promise<void>): Promise<void> {
  const gw = await startGateway({
    upstreams: { sandbox: { current: current.url, legacy: legacy.url } },
    timeouts: TIMEOUTS,
    ...input,
  });
  try {
    await run(gw.url);
  } finally {
    await gw.close();
  }
}

/**
 * A request whose body the client sends `afterMs` after the gateway took its headers (a slow client);
 * its status and parsed body. The headers ask `Expect: 100-continue`: Node writes the 100 as it hands
 * the request to the gateway, so the wait starts once the gateway has the request, however late a
 * loaded machine gets to it.
 */
function slowBody(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  afterMs: number,
): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}${path}`,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          expect: '100-continue',
        },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8').on('data', (d: string) => (answer += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(answer) }));
      },
    );
    req.on('error', reject);
    req.on('continue', () => setTimeout(() => req.end(text), afterMs));
    req.flushHeaders();
  });
}

const timedOut = (answer: { status: number; body: unknown }) => [
  answer.status,
  legacyError.parse(answer.body).errorCode,
];

describe('one deadline per request', () => {
  it.each(['current', 'canary'] as const)(
    '%s: a refund whose preflight read and write are each slow is 504, the refund sent at most once',
    async (mode) => {
      await withGateway({ routes: { '*': mode } }, async (url) => {
        const call = await calls.prepare('L7');
        const id = newId(`refund-${mode}`);
        current.plant((s) => s.id === id, { delayMs: STEP_MS }, 2);
        const answer = await sendCall(url, call, id);
        expect(timedOut(answer), answer.text).toEqual([504, 'upstream_timeout']);
        await current.idle();
        // the read, then the refund at most once (on a slow machine the read alone may spend the deadline)
        expect(
          current
            .of(id)
            .map((r) => r.split(' ')[0])
            .join(' '),
        ).toMatch(/^GET( PATCH)?$/);
      });
    },
  );

  it.each([
    ['current (translated)', 'current', () => current],
    ['legacy (passed through)', 'legacy', () => legacy],
    ['shadow (the sampled primary)', 'shadow', () => legacy],
  ] as const)(
    '%s: a body read slowly, then a slow upstream, is 504; the deadline started before the body',
    async (_name, mode, proxy) => {
      await withGateway({ routes: { '*': mode }, shadow: { learnSample: 0 } }, async (url) => {
        const id = newId(`body-${mode}`);
        proxy().plant((s) => s.id === id, { delayMs: STEP_MS });
        const answer = await slowBody(url, '/orders', { ...SOLO, 'x-request-id': id }, legacyOrder(), STEP_MS);
        expect(timedOut(answer)).toEqual([504, 'upstream_timeout']);
        await proxy().idle();
        expect(
          proxy()
            .of(id)
            .filter((r) => r !== 'POST /orders'),
        ).toEqual([]);
        expect(proxy().of(id).length).toBeLessThanOrEqual(1);
      });
    },
  );

  describe('a merchant token (Get Merchant with the service key, then the call)', () => {
    const tokens = {
      merchantTokens: { mtok_alpha_merchant_token: 'mcht_alpha' },
      serviceKey: KEYS.marketplace,
      routes: { '*': 'current' },
    } as const;
    const ALPHA_TOKEN = { 'Limepay-MerchantToken': 'mtok_alpha_merchant_token' };

    it('a Get Merchant that never answers is 504 at the request deadline, long before its own 5 s timeouts, and nothing else is sent', async () => {
      await withGateway(tokens, async (url) => {
        const id = newId('token-hang');
        current.plant((s) => s.path === '/merchants/mcht_alpha', 'hang');
        const started = Date.now();
        const answer = await sendCall(
          url,
          { method: 'POST', path: '/orders', headers: ALPHA_TOKEN, body: legacyOrder() },
          id,
        );
        expect(timedOut(answer), answer.text).toEqual([504, 'upstream_timeout']);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(current.of(id)).toEqual([]);
      });
    });

    it('a slow Get Merchant and a slow call are 504 together', async () => {
      await withGateway(tokens, async (url) => {
        const id = newId('token-slow');
        current.plant((s) => s.path === '/merchants/mcht_alpha', { delayMs: STEP_MS });
        current.plant((s) => s.id === id, { delayMs: STEP_MS });
        const answer = await sendCall(
          url,
          { method: 'POST', path: '/orders', headers: ALPHA_TOKEN, body: legacyOrder() },
          id,
        );
        expect(timedOut(answer), answer.text).toEqual([504, 'upstream_timeout']);
        await current.idle();
        expect(current.of(id).filter((r) => r !== 'POST /orders')).toEqual([]);
        expect(current.of(id).length).toBeLessThanOrEqual(1);
      });
    });
  });

  it('modes set per merchant: a Query Merchants that never answers is 504 at the request deadline, and the call is never sent', async () => {
    await withGateway(
      { routes: { '*': 'current' }, routesByMerchant: { mcht_solo: { L3: 'legacy' } } },
      async (url) => {
        const call = await calls.prepare('L3');
        const id = newId('query-merchants');
        current.plant((s) => s.path.startsWith('/merchants?'), 'hang');
        const answer = await sendCall(url, call, id);
        expect(timedOut(answer), answer.text).toEqual([504, 'upstream_timeout']);
        expect(current.of(id)).toEqual([]);
        expect(legacy.of(id)).toEqual([]);
      },
    );
  });
});
