/**
 * What the field needs of the gateway beyond the translation (legacy-api.md section 0): the older
 * `Authorization: Basic` generation never reaches the current API, URLs the upstream builds follow
 * the address the client used (behind a TLS terminator too), every sandbox merchant's token works with
 * the embedded default, and metadata numbers come back exactly as sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, startGateway } from '../helpers/gateway.js';
import { call, client } from '../helpers/http.js';
import { CARDS, KEYS, legacyOrder } from '../helpers/sandbox.js';

/** An origin that records what reached it and answers 200 {"seen": true}. */
async function echoOrigin() {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"seen":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;

describe('Authorization: Basic (the generation before the legacy one)', () => {
  let current: Awaited<ReturnType<typeof echoOrigin>>;
  let legacy: Awaited<ReturnType<typeof echoOrigin>>;
  let withLegacy: Awaited<ReturnType<typeof startGateway>>;
  let currentOnly: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    current = await echoOrigin();
    legacy = await echoOrigin();
    withLegacy = await startGateway({ upstreams: { sandbox: { current: current.url, legacy: legacy.url } } });
    currentOnly = await startGateway({ upstreams: { sandbox: { current: current.url } } });
  });
  afterAll(async () => {
    await withLegacy.close();
    await currentOnly.close();
    await current.close();
    await legacy.close();
  });

  it('goes unchanged to the legacy upstream of its key, never to the current API', async () => {
    const body = JSON.stringify({ transactionId: 'lpt_123', refundAmount: { amount: 100, currency: 'AUD' } });
    const res = await call(withLegacy.url, 'POST', '/api/v1/refunds', {
      headers: { authorization: basic(KEYS.soloSk) },
      raw: body,
    });
    expect(res.status).toBe(200);
    expect(legacy.seen).toHaveLength(1);
    expect(legacy.seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/refunds',
      headers: { authorization: basic(KEYS.soloSk) },
    });
    expect(current.seen).toHaveLength(0);
  });

  it('is a legacy 401 unsupported_credentials without a legacy upstream, or for a live key with only sandbox upstreams', async () => {
    for (const [gw, user] of [
      [currentOnly, KEYS.soloSk],
      [withLegacy, 'live_sk_solo_secret_key'],
    ] as const) {
      const res = await call(gw.url, 'POST', '/refunds', { headers: { authorization: basic(user) }, body: {} });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        errorCode: 'unsupported_credentials',
        detail: expect.stringMatching(/^Authorization: the Basic scheme/),
        tracer: expect.any(String),
      });
    }
    const other = await call(currentOnly.url, 'GET', '/orders/ordr_1', {
      headers: { authorization: 'Digest username="x"' },
    });
    expect(other.body).toMatchObject({ errorCode: 'unsupported_credentials' });
    expect(current.seen).toHaveLength(0);
  });
});

describe('the embedded default for a legacy-only user', () => {
  let gw: Awaited<ReturnType<typeof spawnGateway>>;
  beforeAll(async () => {
    // the TLS terminator of the redirectURL test below runs on this machine
    gw = await spawnGateway(['--trusted-proxies', '127.0.0.1,::1']);
  }, 30_000);
  afterAll(async () => {
    await gw.stop();
  });

  const solo = () => client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
  const cardToken = async (card: string) =>
    (await client(gw.url, { 'Limepay-PublicKey': KEYS.soloPk }).post('/sandbox/card-tokens', { cardNumber: card })).body
      .paymentTokenId as string;

  it('takes a test payment with legacy headers only: card token, order, pay, 3DS page through the gateway', async () => {
    const order = (await solo().post('/orders', legacyOrder())).body;
    const challenge = await solo().post(`/orders/${order.merchantOrderId}/pay`, {
      paymentToken: await cardToken(CARDS.threeDS),
      request3DS: true,
    });
    expect(challenge.status).toBe(403);
    const redirect = new URL(challenge.body.paymentActionRequired.redirectURL);
    expect(redirect.origin).toBe(gw.url);
    const page = await fetch(redirect);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('approved by the sandbox issuer');
  });

  it('builds the 3DS redirectURL from X-Forwarded-Proto and -Host behind a TLS terminator', async () => {
    const order = (await solo().post('/orders', legacyOrder())).body;
    const challenge = await solo().post(
      `/orders/${order.merchantOrderId}/pay`,
      { paymentToken: await cardToken(CARDS.threeDS), request3DS: true },
      { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.sandbox.limepay.example' },
    );
    expect(challenge.body.paymentActionRequired.redirectURL).toMatch(
      /^https:\/\/api\.sandbox\.limepay\.example\/sandbox\/3ds\/3ds_/,
    );
  });

  it('answers Expect: 100-continue before the body, as an older libcurl asks for a body over 1 KB (Magento on CentOS 7)', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({
      description: `Item ${i}`,
      sku: `SKU-${i}`,
      amount: 100,
      currency: 'AUD',
      quantity: '1.0000',
      imageUrl: `https://magento.example/media/item${i}.jpg`,
    }));
    const body = JSON.stringify(legacyOrder({ paymentAmount: { amount: 1200, currency: 'AUD' }, items }));
    expect(body.length).toBeGreaterThan(1024);
    const { port } = new URL(gw.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      let sent = false;
      socket.on('connect', () =>
        socket.write(
          `POST /orders HTTP/1.1\r\nHost: api.sandbox.limepay.example\r\nAccept: */*\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nLimepay-SecretKey: ${KEYS.soloSk}\r\nExpect: 100-continue\r\n\r\n`,
        ),
      );
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        // the body goes only once the gateway asked for it
        if (!sent && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          sent = true;
          socket.write(body);
        }
        if (sent && text.includes('"merchantOrderId"') && text.endsWith('}')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${text}`)), 5_000).unref();
    });
    const final = answer.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
    expect(final.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(JSON.parse(final.slice(final.indexOf('\r\n\r\n') + 4)).items).toHaveLength(12);
  });

  it('resolves the merchant token of a merchant outside the demo marketplace', async () => {
    const res = await client(gw.url, { 'Limepay-MerchantToken': KEYS.soloMerchantToken }).post(
      '/orders',
      legacyOrder(),
    );
    expect(res.status).toBe(200);
    expect(res.body.merchantId).toBe('mcht_solo');
  });

  it('keeps metadata numbers a double cannot hold, byte for byte, on the order and its transaction', async () => {
    const metadata =
      '{"orderRef":12345678901234567890,"ratio":0.1000000000000000055511151231257827,"nested":{"ids":[-98765432109876543210,1]}}';
    const body = JSON.stringify(legacyOrder({ metadata: { placeholder: true } })).replace(
      '{"placeholder":true}',
      metadata,
    );
    const created = await call(gw.url, 'POST', '/orders', { headers: { 'Limepay-SecretKey': KEYS.soloSk }, raw: body });
    expect(created.status).toBe(200);
    expect(created.text).toContain(`"metadata":${metadata}`);
    const id = created.body.merchantOrderId;
    expect(
      (await call(gw.url, 'GET', `/orders/${id}`, { headers: { 'Limepay-SecretKey': KEYS.soloSk } })).text,
    ).toContain(`"metadata":${metadata}`);
    const paid = await solo().post(`/orders/${id}/pay`, { paymentToken: await cardToken(CARDS.ok) });
    expect(
      (
        await call(gw.url, 'GET', `/transactions/${paid.body.transactionId}`, {
          headers: { 'Limepay-SecretKey': KEYS.soloSk },
        })
      ).text,
    ).toContain(`"metadata":${metadata}`);
    // alone in its body: seventeen digits a decimal point splits
    const rate = '{"rate":12345678.123456789}';
    const withRate = await call(gw.url, 'POST', '/orders', {
      headers: { 'Limepay-SecretKey': KEYS.soloSk },
      raw: body.replace(metadata, rate),
    });
    expect(withRate.text).toContain(`"metadata":${rate}`);
    expect(
      (
        await call(gw.url, 'GET', `/orders/${withRate.body.merchantOrderId}`, {
          headers: { 'Limepay-SecretKey': KEYS.soloSk },
        })
      ).text,
    ).toContain(`"metadata":${rate}`);
  });

  it('never sends a live key to a sandbox instrument', async () => {
    const res = await client(gw.url, { 'Limepay-PublicKey': 'live_pk_solo_public_key' }).post('/sandbox/card-tokens', {
      cardNumber: CARDS.ok,
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCode: 'unauthenticated' });
  });
});
