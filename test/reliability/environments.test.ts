/**
 * Credentials decide the environment once, before any upstream is chosen: whatever mixture of
 * credential headers a request carries (duplicates, case variants, legacy beside Authorization, Basic),
 * no live_ credential reaches a sandbox upstream and no sandbox_ credential a live one, on every path
 * (translated, legacy mode, current passthrough, unmapped passthrough, sandbox instruments, Basic).
 */
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { writeSummary } from '../helpers/logs.js';
import { readableAnswer } from '../helpers/samples.js';
import { hostOf, send } from '../clients/wire.js';

interface Echo {
  url: string;
  seen: string[];
  close: () => Promise<unknown>;
}

async function echo(): Promise<Echo> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    // every header value that could carry a credential
    for (let i = 0; i < req.rawHeaders.length; i += 2) seen.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(readableAnswer(req.method, req.url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

const b64 = (user: string) => Buffer.from(`${user}:`).toString('base64');
/** One header whose value holds two credentials: a sandbox key first (it would pick the environment), a live one after it. */
const MIXED: [string, string][] = [
  ['Authorization', 'Bearer sandbox_sk_solo_secret_key live_sk_solo_secret_key'],
  ['Authorization', 'Bearer sandbox_sk_solo_secret_key, Bearer live_sk_solo_secret_key'],
  ['Authorization', 'Bearer sandbox_sk_solo_secret_key,live_sk_solo_secret_key'],
  ['Authorization', `Basic ${Buffer.from('sandbox_sk_solo_secret_key:live_sk_solo_secret_key').toString('base64')}`],
  ['Authorization', `Basic ${Buffer.from('sandbox_sk_solo_secret_key live_sk_solo_secret_key:').toString('base64')}`],
  ['Limepay-SecretKey', 'sandbox_sk_solo_secret_key live_sk_solo_secret_key'],
  ['Limepay-SecretKey', 'sandbox_sk_solo_secret_key,live_sk_solo_secret_key'],
  ['Limepay-PublicKey', 'sandbox_pk_solo_public_key live_pk_solo_public_key'],
];
const isMixed = (header: [string, string]) => MIXED.some(([n, v]) => n === header[0] && v === header[1]);
const HEADERS = fc.constantFrom(
  ['Limepay-SecretKey', 'sandbox_sk_solo_secret_key'],
  ['Limepay-SecretKey', 'live_sk_solo_secret_key'],
  ['limepay-secretkey', 'live_sk_solo_secret_key'],
  ['LIMEPAY-SECRETKEY', 'sandbox_sk_solo_secret_key'],
  ['Limepay-PublicKey', 'sandbox_pk_solo_public_key'],
  ['Limepay-PublicKey', 'live_pk_solo_public_key'],
  ['Limepay-Token', 'live_api_demo_marketplace_key'],
  ['Authorization', 'Bearer live_sk_solo_secret_key'],
  ['Authorization', 'Bearer sandbox_sk_solo_secret_key'],
  ['authorization', 'bearer live_pk_solo_public_key'],
  ['Authorization', `Basic ${b64('live_sk_solo_secret_key')}`],
  ['Authorization', `Basic ${b64('sandbox_sk_solo_secret_key')}`],
  ...MIXED,
);
const PATHS = fc.constantFrom(
  ['GET', '/orders/ordr_abc'], // L3: legacy mode
  ['GET', '/transactions/tran_abc'], // L6: translated
  ['POST', '/refunds'], // L7: translated write
  ['POST', '/sandbox/card-tokens'],
  ['POST', '/api/v1/refunds'], // unmapped: legacy passthrough
  ['GET', '/customers?emailAddress=a@example.com'],
);

let sandboxCurrent: Echo;
let sandboxLegacy: Echo;
let liveCurrent: Echo;
let liveLegacy: Echo;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  [sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy] = await Promise.all([echo(), echo(), echo(), echo()]);
  gw = await startGateway({
    upstreams: {
      sandbox: { current: sandboxCurrent.url, legacy: sandboxLegacy.url },
      live: { current: liveCurrent.url, legacy: liveLegacy.url },
    },
    routes: { L3: 'legacy', L17: 'shadow', '*': 'current' },
    shadow: { sample: { L17: 0 } },
    unmappedRoutes: 'legacy',
  });
});
afterAll(async () => {
  await gw.close();
  for (const e of [sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy]) await e.close();
});

describe('the environment of a request', () => {
  it('never sends a live_ credential to a sandbox upstream, nor a sandbox_ one to a live upstream, under 400 generated header mixtures', async () => {
    const statuses = new Map<number, number>();
    let mixedRefused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(HEADERS, { minLength: 1, maxLength: 3 }), PATHS, async (headers, [method, path]) => {
        const body =
          method === 'POST'
            ? JSON.stringify({
                transactionId: 'tran_abc',
                refundAmount: { amount: 100, currency: 'AUD' },
                cardNumber: '4242424242424242',
              })
            : undefined;
        const answer = await send(gw.url, {
          method: method,
          path: path,
          headers: [
            ['Host', hostOf(gw.url)],
            ...headers,
            ...(body
              ? ([
                  ['Content-Type', 'application/json'],
                  ['Content-Length', String(body.length)],
                ] as [string, string][])
              : []),
          ],
          ...(body ? { body } : {}),
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        // more than one credential, in several headers or in one value, is refused before anything is sent
        if (headers.length > 1 || isMixed(headers[0] as [string, string]))
          expect(answer.status, JSON.stringify(headers)).toBe(400);
        if (headers.length === 1 && isMixed(headers[0] as [string, string])) mixedRefused++;
      }),
      { numRuns: 400 },
    );
    const leaked = [...sandboxCurrent.seen, ...sandboxLegacy.seen].filter(
      (h) => /live_/.test(h) || /Basic (?!c2FuZGJveF)/.test(h),
    );
    expect(leaked).toEqual([]);
    expect(
      [...liveCurrent.seen, ...liveLegacy.seen].filter((h) => /sandbox_/.test(h) || /Basic c2FuZGJveF/.test(h)),
    ).toEqual([]);
    // the generator reached every upstream: the property was tested, not skipped
    for (const e of [sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy]) expect(e.seen.length).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(mixedRefused, 'single headers holding two credentials were generated').toBeGreaterThan(0);
    const reached = [sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy].reduce(
      (n, e) => n + e.seen.filter((h) => /^host:/i.test(h)).length,
      0,
    );
    writeSummary(
      '2c-environments',
      `environments: 400 generated credential-header mixtures on 6 paths; ${statuses.get(400)} refused with 400 before any upstream, ${reached} forwarded; 0 live_ credentials reached a sandbox upstream, 0 sandbox_ a live one`,
    );
  });
});

describe('a credential value of no documented form (issue 56, item 3)', () => {
  // one key, then a separator, then a key of the other environment: one header value, two credentials
  const SEPARATORS = [
    ';',
    '|',
    '&',
    '/',
    '+',
    ':',
    '=',
    '.',
    '!',
    '#',
    '%',
    '*',
    '~',
    '@',
    '\\',
    '^',
    "'",
    '$',
    '\t',
    ' ',
    ',',
  ];
  const HEADERS: [string, (sep: string) => string][] = [
    ['Limepay-SecretKey', (sep) => `sandbox_sk_solo_secret_key${sep}live_sk_solo_secret_key`],
    ['Limepay-PublicKey', (sep) => `sandbox_pk_solo_public_key${sep}live_pk_solo_public_key`],
    ['Limepay-Token', (sep) => `sandbox_api_demo_marketplace_key${sep}live_api_demo_marketplace_key`],
    ['Limepay-CheckoutToken', (sep) => `chk_checkout_token${sep}live_sk_solo_secret_key`],
    ['Authorization', (sep) => `Bearer sandbox_sk_solo_secret_key${sep}live_sk_solo_secret_key`],
    ['Authorization', (sep) => `Basic ${b64(`sandbox_sk_solo_secret_key${sep}live_sk_solo_secret_key`)}`],
  ];
  const EVERY_PATH = [
    ['GET', '/orders/ordr_form1'], // L3: legacy mode
    ['GET', '/transactions?merchantOrderId=ordr_form1'], // L17: shadow, unsampled: straight to legacy
    ['GET', '/transactions/tran_form1'], // L6: translated
    ['POST', '/refunds'], // L7: translated write
    ['GET', '/sandbox/stats'], // the sandbox's own path
    ['POST', '/sandbox/card-tokens'],
    ['POST', '/api/v1/refunds'], // unmapped: legacy passthrough
  ] as const;

  it('is refused with a legacy 401 or 400 on every path, and no upstream hears of it', async () => {
    const seenBefore = [sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy].map((e) => e.seen.length);
    const refused = new Map<string, number>();
    for (const sep of SEPARATORS)
      for (const [name, value] of HEADERS)
        for (const [method, path] of EVERY_PATH) {
          const body =
            method === 'POST'
              ? JSON.stringify({ transactionId: 'tran_form1', refundAmount: { amount: 100, currency: 'AUD' } })
              : undefined;
          const answer = await send(gw.url, {
            method,
            path,
            headers: [
              ['Host', hostOf(gw.url)],
              [name, value(sep)],
              ...(body
                ? ([
                    ['Content-Type', 'application/json'],
                    ['Content-Length', String(body.length)],
                  ] as [string, string][])
                : []),
            ],
            ...(body ? { body } : {}),
          });
          const label = `${name}: ${JSON.stringify(value(sep))} on ${method} ${path}`;
          expect([400, 401], `${label}: ${answer.text}`).toContain(answer.status);
          expect(['invalid_credentials', 'unauthenticated'], label).toContain(answer.json?.errorCode);
          expect(answer.json, label).toMatchObject({
            statusCode: answer.status,
            message: expect.any(String),
            detail: expect.stringMatching(/^(Limepay-\w+|Authorization)/),
            tracer: answer.headers['x-request-id'],
          });
          refused.set(answer.json.errorCode, (refused.get(answer.json.errorCode) ?? 0) + 1);
        }
    expect([sandboxCurrent, sandboxLegacy, liveCurrent, liveLegacy].map((e) => e.seen.length)).toEqual(seenBefore);
    // both refusals occur: two tokens by white space or a comma (400), one token of no form (401)
    expect(refused.get('invalid_credentials')).toBeGreaterThan(0);
    expect(refused.get('unauthenticated')).toBeGreaterThan(0);
  }, 60_000);

  it('a value of its form still goes through on the same paths (the refusals above are for the form)', async () => {
    const before = sandboxLegacy.seen.length + sandboxCurrent.seen.length;
    for (const [method, path] of EVERY_PATH.filter(([m]) => m === 'GET')) {
      const answer = await send(gw.url, {
        method,
        path,
        headers: [
          ['Host', hostOf(gw.url)],
          ['Limepay-SecretKey', 'sandbox_sk_solo_secret_key'],
        ],
      });
      expect(answer.status, `${method} ${path}`).toBe(200);
    }
    expect(sandboxLegacy.seen.length + sandboxCurrent.seen.length).toBeGreaterThan(before);
  });
});
