/**
 * A migration without restarts: the operator API changes a route's mode or sample rate on this replica
 * (validated, atomic between requests, audited, counted); SIGHUP and a rewritten configuration file (a
 * ConfigMap update) reload it with the same validation, a bad file keeping the running table; a route
 * cut over and rolled back under load loses no request and sends no write twice.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logSink, spawnGateway, startGateway, tempJson } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { currentOrder, KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnBin } from '../helpers/spawn.js';

const ALICE = 'operator-token-of-alice-0001';
const BOB = 'operator-token-of-bob-000002';

/** An upstream that names itself in every answer, after `delayMs`; `received` counts the requests that reached it. */
async function namedUpstream(name: string, delayMs = 0) {
  let received = 0;
  const server: Server = createServer((req, res) => {
    received++;
    req.resume();
    setTimeout(() => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'x', detail: name, tracer: 't' })), delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received, close: () => new Promise((r) => server.close(r)) };
}

describe('the operator API', () => {
  let current: Awaited<ReturnType<typeof namedUpstream>>;
  let legacy: Awaited<ReturnType<typeof namedUpstream>>;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const logs = logSink();
  beforeAll(async () => {
    current = await namedUpstream('current', 400);
    legacy = await namedUpstream('legacy');
    gw = await startGateway(
      { upstreams: { sandbox: { current: current.url, legacy: legacy.url } }, routes: { '*': 'current' }, operatorTokens: { alice: ALICE, bob: BOB }, serviceKey: 'sandbox_api_service_key_value' },
      logs.stream,
    );
  });
  afterAll(async () => {
    await gw.close();
    await current.close();
    await legacy.close();
  });
  const as = (token: string) => client(gw.url, { authorization: `Bearer ${token}` });

  it('shows the live route table and the configuration in force, secrets masked, to an operator only', async () => {
    expect((await client(gw.url).get('/_paybridge/routes')).status).toBe(401);
    const table = await as(ALICE).get('/_paybridge/routes');
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({ version: 0, source: 'start', scope: expect.stringContaining('this replica') });
    expect(table.body.routes.find((r: { route: string }) => r.route === 'L7')).toMatchObject({ legacy: 'POST /refunds', mode: 'current', sample: 1, writeSafety: 'readback' });
    const config = await as(BOB).get('/_paybridge/config');
    expect(config.status).toBe(200);
    expect(config.text).not.toContain(ALICE);
    expect(config.text).not.toContain('sandbox_api_service_key_value');
    expect(config.body.config.upstreams.sandbox.current).toBe(current.url);
  });

  it('refuses an unknown route, mode, sample or field with a 400 naming it, and changes nothing', async () => {
    const put = (route: string, body: unknown) => client(gw.url, { authorization: `Bearer ${ALICE}` }).put(`/_paybridge/routes/${route}`, body);
    const cases: [string, unknown, string][] = [
      ['L99', { mode: 'legacy' }, 'route: L99 is not a route id'],
      ['L6', { mode: 'sideways' }, 'mode: "sideways" is not a mode'],
      ['L6', { sample: 2 }, 'sample: 2 is not a share between 0 and 1'],
      ['L6', { mode: 'legacy', weight: 1 }, 'weight: unknown field'],
      ['L6', {}, 'L6: name a mode or a sample rate'],
    ];
    for (const [route, body, detail] of cases) {
      const answer = await put(route, body);
      expect(answer.status, detail).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'invalid_request', detail: expect.stringContaining(detail) });
    }
    expect((await as(ALICE).get('/_paybridge/routes')).body.version).toBe(0);
    // a token in the query may read, never change
    expect((await client(gw.url).put(`/_paybridge/routes/L6?token=${ALICE}`, { mode: 'legacy' })).status).toBe(401);
  });

  it('changes a mode between requests: the one in flight finishes under its mode, the next takes the new one; audited and counted', async () => {
    const legacyCall = () => client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/transactions/tran_flight1');
    const before = current.received();
    const inFlight = legacyCall();
    // in flight: the current upstream has it (and answers it 400 ms later)
    await vi.waitFor(() => expect(current.received()).toBe(before + 1), { interval: 5 });
    const changed = await client(gw.url, { authorization: `Bearer ${BOB}` }).put('/_paybridge/routes/L6', { mode: 'legacy', sample: 0.5 });
    expect(changed.status).toBe(200);
    expect(changed.body.routes.find((r: { route: string }) => r.route === 'L6')).toMatchObject({ mode: 'legacy', sample: 0.5 });
    expect((await inFlight).body.detail).toBe('current');
    expect((await legacyCall()).body.detail).toBe('legacy');
    gw.gateway.flushLogs();
    const audit = logs.records().filter((r) => r.audit === 'route');
    expect(audit).toEqual([expect.objectContaining({ by: 'operator bob', route: 'L6', old: { mode: null, sample: null }, new: { mode: 'legacy', sample: 0.5 }, version: 1, msg: 'route changed' })]);
    expect((await client(gw.url).get('/metrics')).text).toMatch(/^paybridge_route_changes_total\{route="L6",source="operator"\} 1$/m);
    // and back in one step
    expect((await client(gw.url, { authorization: `Bearer ${BOB}` }).put('/_paybridge/routes/L6', { mode: 'current' })).status).toBe(200);
    expect((await legacyCall()).body.detail).toBe('current');
  });
});

describe('cut over and roll back under load', () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } }, routes: { '*': 'legacy' }, operatorToken: ALICE });
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('flips L1 between legacy and current six times during 240 order creations: every one answered 200, each order created once', async () => {
    const before = sb.sandbox.store.stats.ordersCreated;
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    let next = 0;
    const answers: number[] = [];
    const worker = async () => {
      for (let i = next++; i < 240; i = next++) {
        const res = await api.post('/orders', { internalOrderId: `flip-${i}`, paymentAmount: { amount: 100 + i, currency: 'AUD' }, description: '', billing: { name: 'Jo' } });
        answers.push(res.status);
      }
    };
    const flipper = async () => {
      for (const mode of ['current', 'legacy', 'current', 'legacy', 'current', 'legacy']) {
        await new Promise((r) => setTimeout(r, 40));
        expect((await client(gw.url, { authorization: `Bearer ${ALICE}` }).put('/_paybridge/routes/L1', { mode })).status).toBe(200);
      }
    };
    await Promise.all([...Array.from({ length: 8 }, worker), flipper()]);
    expect(answers).toHaveLength(240);
    expect(answers.filter((s) => s !== 200)).toEqual([]);
    expect(sb.sandbox.store.stats.ordersCreated - before).toBe(240);
    const references = [...sb.sandbox.store.orders.values()].map((o) => o.referenceOrderId).filter((r) => r?.startsWith('flip-'));
    expect(new Set(references).size).toBe(240);
    expect((await client(gw.url, { authorization: `Bearer ${ALICE}` }).get('/_paybridge/routes')).body.version).toBe(6);
  }, 60_000);
});

describe('the configuration file, reloaded', () => {
  it('SIGHUP applies a new file, keeps the running table on a bad one (logged, never a crash), and a rewritten file applies by itself', async () => {
    const settings = (routes: Record<string, string>) => ({ routes, operatorToken: ALICE });
    const file = tempJson('paybridge.json', settings({ '*': 'current' }));
    const gw = await spawnGateway(['--config', file]);
    const table = async () => (await client(gw.url, { authorization: `Bearer ${ALICE}` }).get('/_paybridge/routes')).body as { version: number; source: string; routes: { route: string; mode: string }[] };
    const modeOfL3 = async () => (await table()).routes.find((r) => r.route === 'L3')!.mode;
    try {
      writeFileSync(file, JSON.stringify(settings({ '*': 'current', L3: 'legacy' })));
      gw.child.kill('SIGHUP');
      await vi.waitFor(async () => expect(await modeOfL3()).toBe('legacy'), { timeout: 5_000 });
      writeFileSync(file, JSON.stringify({ ...settings({ L3: 'sideways' }), extra: true }));
      gw.child.kill('SIGHUP');
      await vi.waitFor(() => expect(gw.stdout()).toContain('configuration reload refused'), { timeout: 5_000 });
      expect(gw.child.exitCode).toBeNull();
      expect(await modeOfL3()).toBe('legacy');
      // no signal: the file rewritten, as a ConfigMap update does
      writeFileSync(file, JSON.stringify(settings({ '*': 'current', L3: 'shadow' })));
      await vi.waitFor(async () => expect(await modeOfL3()).toBe('shadow'), { timeout: 8_000, interval: 200 });
      expect((await table()).source).toBe('file');
      // and the CLI reads the running gateway's table
      const routes = spawnBin(['routes', '--gateway', gw.url, '--operator-token', ALICE]);
      expect(await routes.exited).toBe(0);
      expect(routes.stdout()).toMatch(/^L3\s+GET \/orders\/\{merchantOrderId\}\s+shadow\s+sample 1/m);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 30_000);
});

describe('modes per merchant, readiness per merchant and kind of client', () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } }, routes: { '*': 'legacy' }, operatorToken: ALICE, shadow: { readyAfter: 2, learnSample: 0 } });
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('cuts one merchant over first (its credential tells the gateway who it is), reports it per merchant and per client, and takes the override back', async () => {
    const operator = client(gw.url, { authorization: `Bearer ${ALICE}` });
    for (const [body, detail] of [[{ merchant: 'solo', mode: 'shadow' }, 'merchant: "solo" is not a mcht_ id'], [{ merchant: 'mcht_solo', sample: 0.5 }, "sample: a sample rate is the route's"]] as const)
      expect((await operator.put('/_paybridge/routes/L3', body)).body).toMatchObject({ errorCode: 'invalid_request', detail: expect.stringContaining(detail) });
    const set = await operator.put('/_paybridge/routes/L3', { merchant: 'mcht_solo', mode: 'shadow' });
    expect(set.body.merchants).toEqual({ mcht_solo: { L3: 'shadow' } });
    const orderOf = async (key: string) => (await sb.current(key).post('/orders', currentOrder())).body.OnlineOrder.order.orderId as string;
    const soloOrder = await orderOf(KEYS.soloSk);
    const otherOrder = await orderOf(KEYS.otherSk);
    const read = (key: string, order: string, ua: string) => client(gw.url, { 'Limepay-SecretKey': key, 'User-Agent': ua }).get(`/orders/${order}`);
    for (let i = 0; i < 2; i++) {
      expect((await read(KEYS.soloSk, soloOrder, 'WordPress/6.4.2; https://shop.example')).status).toBe(200);
      expect((await read(KEYS.soloSk, soloOrder, 'LimepayApi.Net/1.0 HttpClient')).status).toBe(200);
      expect((await read(KEYS.otherSk, otherOrder, 'WordPress/6.4.2; https://other.example')).status).toBe(200);
    }
    await gw.gateway.shadow.idle();
    const l3 = (await operator.get('/_paybridge/report')).body.routes.find((r: { route: string }) => r.route === 'L3');
    // only solo's reads were shadowed: other's went straight to the legacy upstream
    expect(l3.compared).toBe(4);
    expect(l3.byMerchant).toEqual({ mcht_solo: { compared: 4, matched: 4, state: 'ready' } });
    expect(l3.byClient).toEqual({ wordpress: { compared: 2, matched: 2, state: 'ready' }, dotnet: { compared: 2, matched: 2, state: 'ready' } });
    const cleared = await operator.put('/_paybridge/routes/L3', { merchant: 'mcht_solo', mode: null });
    expect(cleared.body.merchants).toEqual({});
    expect((await read(KEYS.soloSk, soloOrder, 'curl/8')).status).toBe(200);
    await gw.gateway.shadow.idle();
    expect((await operator.get('/_paybridge/report')).body.routes.find((r: { route: string }) => r.route === 'L3').compared).toBe(4);
  });
});
