/**
 * A migration without restarts: the operator API changes a route's mode or sample rate on this replica
 * (validated, atomic between requests, audited, counted); SIGHUP and a rewritten configuration file (a
 * ConfigMap update) reload it with the same validation, a bad file keeping the running table; a route
 * cut over and rolled back under load loses no request and sends no write twice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configMapVolume } from '../helpers/configmap.js';
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
    setTimeout(
      () =>
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ statusCode: 404, errorCode: 'not_found', message: 'x', detail: name, tracer: 't' })),
      delayMs,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => new Promise((r) => server.close(r)),
  };
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
      {
        upstreams: { sandbox: { current: current.url, legacy: legacy.url } },
        routes: { '*': 'current' },
        operatorTokens: { alice: ALICE, bob: BOB },
        serviceKey: 'sandbox_api_service_key_value',
      },
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
    expect(table.body.routes.find((r: { route: string }) => r.route === 'L7')).toMatchObject({
      legacy: 'POST /refunds',
      mode: 'current',
      sample: 1,
      writeSafety: 'readback',
    });
    const config = await as(BOB).get('/_paybridge/config');
    expect(config.status).toBe(200);
    expect(config.text).not.toContain(ALICE);
    expect(config.text).not.toContain('sandbox_api_service_key_value');
    expect(config.body.config.upstreams.sandbox.current).toBe(current.url);
  });

  it('refuses an unknown route, mode, sample or field with a 400 naming it, and changes nothing', async () => {
    const put = (route: string, body: unknown) =>
      client(gw.url, { authorization: `Bearer ${ALICE}` }).put(`/_paybridge/routes/${route}`, body);
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

  it('takes the token from Authorization: Bearer alone, never the URL, never empty; each refusal logged with its tracer and source, never the token (issue 56, item 1)', async () => {
    const version = async () => (await as(ALICE).get('/_paybridge/routes')).body.version as number;
    const start = await version();
    const before = logs.lines.length;
    const tries: [string, Record<string, string>][] = [
      [`/_paybridge/routes/L1?token=${ALICE}`, { authorization: 'Basic Zm9v' }],
      [`/_paybridge/routes/L1?token=${ALICE}`, {}],
      ['/_paybridge/routes/L1', { authorization: 'Bearer ' }],
      ['/_paybridge/routes/L1', { authorization: 'Bearer' }],
      ['/_paybridge/routes/L1', { authorization: `Bearer ${ALICE}x` }],
      ['/_paybridge/routes/L1', { authorization: `Bearer ${ALICE.slice(0, -1)}` }],
      ['/_paybridge/routes/L1', { authorization: `Bearer ${ALICE} ${BOB}` }],
      ['/_paybridge/routes/L1', { authorization: `Token ${ALICE}` }],
    ];
    const tracers: string[] = [];
    for (const [path, headers] of tries) {
      const answer = await client(gw.url, headers).put(path, { mode: 'legacy' });
      expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      expect(answer.body).toMatchObject({
        statusCode: 401,
        errorCode: 'unauthenticated',
        tracer: answer.headers.get('x-request-id'),
      });
      tracers.push(answer.body.tracer);
    }
    for (const path of [
      `/_paybridge/routes?token=${ALICE}`,
      `/_paybridge/report?token=${ALICE}`,
      `/_paybridge/?token=${ALICE}`,
      `/_paybridge/config?token=${ALICE}`,
    ])
      expect((await client(gw.url).get(path)).status, path).toBe(401);
    expect(await version()).toBe(start);
    // the scheme's name in any case is still Bearer
    expect((await client(gw.url, { authorization: `bearer ${ALICE}` }).get('/_paybridge/routes')).status).toBe(200);
    gw.gateway.flushLogs();
    const refusals = logs
      .records()
      .slice(0)
      .filter((r) => r.msg === 'operator login refused');
    for (const tracer of tracers)
      expect(
        refusals.find((r) => r.requestId === tracer),
        tracer,
      ).toMatchObject({ level: 40, source: '127.0.0.1', path: '/_paybridge/routes/L1', reason: expect.any(String) });
    expect(logs.lines.slice(before).join('\n')).not.toContain(ALICE.slice(0, -1));
  });

  it("a malformed body is a 400 in the error shape, never a 500, with or without a token; a stranger's body is never read", async () => {
    const before = logs.lines.length;
    const send = (authorization: string | undefined, body: string, type = 'application/json') =>
      fetch(`${gw.url}/_paybridge/routes/L4`, {
        method: 'PUT',
        headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
        body,
      });
    for (const body of [
      '{bad',
      '[1,2',
      '{"mode":"legacy"',
      '{"__proto__":{"x":1}}',
      '',
      '{"mode":"legacy","mode":"current"}',
    ]) {
      const answer = await send(`Bearer ${ALICE}`, body);
      expect(answer.status, body).toBe(400);
      expect(await answer.json(), body).toMatchObject({
        statusCode: 400,
        errorCode: 'invalid_request',
        detail: expect.stringMatching(/^body/),
        tracer: answer.headers.get('x-request-id'),
      });
      const stranger = await send(undefined, body);
      expect(stranger.status, `no token: ${body}`).toBe(401);
    }
    const text = await send(`Bearer ${ALICE}`, 'mode=legacy', 'text/plain');
    expect([text.status, ((await text.json()) as { errorCode: string }).errorCode]).toEqual([400, 'invalid_request']);
    const huge = await send(`Bearer ${ALICE}`, JSON.stringify({ mode: 'legacy', pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect([huge.status, ((await huge.json()) as { errorCode: string }).errorCode]).toEqual([413, 'payload_too_large']);
    gw.gateway.flushLogs();
    expect(
      logs
        .records()
        .slice(before)
        .filter((r) => (r.level as number) >= 50),
    ).toEqual([]);
  });

  it('an unknown own path is a 404 in the error shape that does not echo its query; a client gone mid-body is an info line', async () => {
    const before = logs.lines.length;
    for (const [method, path] of [
      ['GET', `/_paybridge/nothing?token=${ALICE}`],
      ['POST', `/healthz?token=${ALICE}`],
      ['GET', `/_paybridge/routes/L1/extra?token=${ALICE}`],
    ] as const) {
      const answer = await fetch(`${gw.url}${path}`, { method });
      const text = await answer.text();
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(text), path).toMatchObject({
        statusCode: 404,
        errorCode: 'not_found',
        detail: `${method} ${path.split('?')[0]}: not one of the gateway's own paths`,
        tracer: answer.headers.get('x-request-id'),
      });
      expect(text).not.toContain(ALICE);
    }
    // a client that sends half a body and goes away
    const { port } = new URL(gw.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `PUT /_paybridge/routes/L1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ALICE}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"mode":`,
        );
        setTimeout(() => (socket.destroy(), resolve()), 100);
      });
    });
    await vi.waitFor(() => {
      gw.gateway.flushLogs();
      expect(
        logs
          .records()
          .slice(before)
          .some(
            (r) =>
              r.level === 30 &&
              r.msg === 'client closed the connection before the request was read' &&
              r.path === '/_paybridge/routes/L1',
          ),
      ).toBe(true);
    });
    expect(
      logs
        .records()
        .slice(before)
        .filter((r) => (r.level as number) >= 50),
    ).toEqual([]);
    expect(logs.lines.slice(before).join('\n')).not.toContain(ALICE);
  });

  it('changes a mode between requests: the one in flight finishes under its mode, the next takes the new one; audited and counted', async () => {
    const legacyCall = () => client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/transactions/tran_flight1');
    const before = current.received();
    const inFlight = legacyCall();
    // in flight: the current upstream has it (and answers it 400 ms later)
    await vi.waitFor(() => expect(current.received()).toBe(before + 1), { interval: 5 });
    const changed = await client(gw.url, { authorization: `Bearer ${BOB}` }).put('/_paybridge/routes/L6', {
      mode: 'legacy',
      sample: 0.5,
    });
    expect(changed.status).toBe(200);
    expect(changed.body.routes.find((r: { route: string }) => r.route === 'L6')).toMatchObject({
      mode: 'legacy',
      sample: 0.5,
    });
    expect((await inFlight).body.detail).toBe('current');
    expect((await legacyCall()).body.detail).toBe('legacy');
    gw.gateway.flushLogs();
    const audit = logs.records().filter((r) => r.audit === 'route');
    expect(audit).toEqual([
      expect.objectContaining({
        by: 'operator bob',
        route: 'L6',
        old: { mode: null, sample: null },
        new: { mode: 'legacy', sample: 0.5 },
        version: 1,
        msg: 'route changed',
      }),
    ]);
    const metrics = (await client(gw.url).get('/metrics')).text;
    expect(metrics).toMatch(/^paybridge_route_changes_total\{route="L6",source="operator"\} 1$/m);
    // the configuration in force moved: its generation, and a hash the other replicas do not share
    expect(metrics).toMatch(/^paybridge_config_generation 1$/m);
    const hash = /^paybridge_config_info\{hash="([0-9a-f]{12})",source="operator"\} 1$/m.exec(metrics)?.[1];
    expect(hash).toBe((await as(BOB).get('/_paybridge/config')).body.hash);
    // and back in one step
    expect(
      (await client(gw.url, { authorization: `Bearer ${BOB}` }).put('/_paybridge/routes/L6', { mode: 'current' }))
        .status,
    ).toBe(200);
    expect((await legacyCall()).body.detail).toBe('current');
  });
});

describe('cut over and roll back under load', () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'legacy' },
      operatorToken: ALICE,
    });
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
        const res = await api.post('/orders', {
          internalOrderId: `flip-${i}`,
          paymentAmount: { amount: 100 + i, currency: 'AUD' },
          description: '',
          billing: { name: 'Jo' },
        });
        answers.push(res.status);
      }
    };
    const flipper = async () => {
      for (const mode of ['current', 'legacy', 'current', 'legacy', 'current', 'legacy']) {
        await new Promise((r) => setTimeout(r, 40));
        expect(
          (await client(gw.url, { authorization: `Bearer ${ALICE}` }).put('/_paybridge/routes/L1', { mode })).status,
        ).toBe(200);
      }
    };
    await Promise.all([...Array.from({ length: 8 }, worker), flipper()]);
    expect(answers).toHaveLength(240);
    expect(answers.filter((s) => s !== 200)).toEqual([]);
    expect(sb.sandbox.store.stats.ordersCreated - before).toBe(240);
    const references = [...sb.sandbox.store.orders.values()]
      .map((o) => o.referenceOrderId)
      .filter((r) => r?.startsWith('flip-'));
    expect(new Set(references).size).toBe(240);
    expect((await client(gw.url, { authorization: `Bearer ${ALICE}` }).get('/_paybridge/routes')).body.version).toBe(6);
  }, 60_000);
});

describe('the configuration file, reloaded', () => {
  it('SIGHUP applies a new file, keeps the running table on a bad one (logged, never a crash), and a rewritten file applies by itself', async () => {
    const settings = (routes: Record<string, string>) => ({ routes, operatorToken: ALICE });
    const file = tempJson('paybridge.json', settings({ '*': 'current' }));
    const gw = await spawnGateway(['--config', file]);
    const table = async () =>
      (await client(gw.url, { authorization: `Bearer ${ALICE}` }).get('/_paybridge/routes')).body as {
        version: number;
        source: string;
        routes: { route: string; mode: string }[];
      };
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

/** A ConfigMap mounted in a fresh folder: its paybridge.json, and the update the kubelet makes. */
function configMapFile(content: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'paybridge-configmap-'));
  const project = configMapVolume(dir);
  const update = (value: unknown) => project({ 'paybridge.json': JSON.stringify(value) });
  update(content);
  return { file: join(dir, 'paybridge.json'), update };
}

describe('one source of truth for the route table', () => {
  const metric = async (url: string, pattern: RegExp) => pattern.exec((await client(url).get('/metrics')).text)?.[1];
  const hashOf = (url: string) => metric(url, /^paybridge_config_info\{hash="([0-9a-f]{12})",source="\w+"\} 1$/m);

  it('with a file the operator API refuses changes (naming the file); a reload applies its table, names every setting it did not apply, and /_paybridge/config shows what is in force', async () => {
    const settings = { routes: { '*': 'current' }, operatorToken: ALICE, shadow: { readyAfter: 50 } };
    const file = tempJson('paybridge.json', settings);
    const gw = await spawnGateway(['--config', file]);
    const operator = client(gw.url, { authorization: `Bearer ${ALICE}` });
    try {
      const refused = await operator.put('/_paybridge/routes/L3', { mode: 'legacy' });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        errorCode: 'forbidden',
        detail: expect.stringContaining(`the route table is set by the configuration file ${file}: change the file`),
      });
      expect((await operator.get('/_paybridge/routes')).body).toMatchObject({
        version: 0,
        scope: expect.stringContaining(`set by the configuration file ${file}`),
      });
      const before = await hashOf(gw.url);

      // one change the reload applies (a route's mode) and three it cannot (made at start)
      writeFileSync(
        file,
        JSON.stringify({
          ...settings,
          routes: { '*': 'current', L3: 'canary:25%' },
          shadow: { readyAfter: 10, writeSafety: { L7: 'validate' } },
          sandbox: { allowedOrigins: ['https://shop.example'] },
        }),
      );
      await vi.waitFor(
        async () =>
          expect((await operator.get('/_paybridge/config')).body.config.routes).toEqual({
            '*': 'current',
            L3: 'canary:25%',
          }),
        { timeout: 8_000, interval: 200 },
      );
      const line = gw
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"configuration reloaded'))
        .map((l) => JSON.parse(l))
        .at(-1);
      expect(line).toMatchObject({
        level: 40,
        reload: 'file',
        routesApplied: true,
        msg: expect.stringContaining('not applied, a restart applies them: '),
      });
      expect(new Set(line.notApplied)).toEqual(
        new Set(['shadow.readyAfter', 'shadow.writeSafety.L7', 'sandbox.allowedOrigins']),
      );
      // what runs: the new table, the start's readyAfter and write safety; the settings waiting named
      const shown = (await operator.get('/_paybridge/config')).body;
      expect(shown).toMatchObject({
        generation: 1,
        routesSetBy: `the configuration file ${file}`,
        lastReload: { source: 'file', ok: true },
        notApplied: line.notApplied,
      });
      expect(shown.config.shadow).toMatchObject({ readyAfter: 50, writeSafety: {} });
      expect(shown.config.sandbox.allowedOrigins).toEqual(['*']);
      const after = await hashOf(gw.url);
      expect(after).toBe(shown.hash);
      expect(after).not.toBe(before);
      expect(await metric(gw.url, /^paybridge_config_not_applied (\d+)$/m)).toBe('3');
      expect(await metric(gw.url, /^paybridge_config_generation (\d+)$/m)).toBe('1');
      // the same file again (SIGHUP): nothing moves
      gw.child.kill('SIGHUP');
      await vi.waitFor(() => expect(gw.stdout()).toMatch(/"reload":"SIGHUP"/), { timeout: 5_000 });
      expect(await hashOf(gw.url)).toBe(after);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 30_000);

  it('two replicas on one ConfigMap: after an update (the kubelet swaps the mounted folder) both run the new table and show one hash', async () => {
    const volume = configMapFile({ routes: { '*': 'legacy' }, operatorToken: ALICE });
    const replicas: Awaited<ReturnType<typeof spawnGateway>>[] = [];
    try {
      for (let i = 0; i < 2; i++)
        replicas.push(await spawnGateway(['--config', volume.file], {}, { timeoutMs: 20_000 }));
      const start = await Promise.all(replicas.map((r) => hashOf(r.url)));
      expect(start[0]).toBe(start[1]);
      const changed = Date.now();
      volume.update({ routes: { '*': 'legacy', L1: 'shadow' }, operatorToken: ALICE });
      await vi.waitFor(
        async () => {
          const now = await Promise.all(replicas.map((r) => hashOf(r.url)));
          expect(now[0]).not.toBe(start[0]);
          expect(now[1]).toBe(now[0]);
        },
        { timeout: 8_000, interval: 100 },
      );
      // within the file poll (a second) and a scrape: the kubelet's own sync comes on top in a cluster
      expect(Date.now() - changed).toBeLessThan(8_000);
      const check = spawnBin(['routes', ...replicas.flatMap((r) => ['--gateway', r.url]), '--operator-token', ALICE]);
      expect(await check.exited).toBe(0);
      expect(check.stdout()).toMatch(/^Replicas: all 2 run one configuration \(hash [0-9a-f]{12}\)$/m);
      expect(check.stdout()).toMatch(/^L1\s+POST \/orders\s+shadow/m);
    } finally {
      for (const r of replicas) expect(await r.stop()).toBe(0);
    }
  }, 30_000);

  it('replicas that differ are told apart: the routes check exits 1', async () => {
    const a = await startGateway({
      routes: { '*': 'legacy' },
      operatorToken: ALICE,
      upstreams: { sandbox: { legacy: 'http://127.0.0.1:9' } },
    });
    const b = await startGateway({
      routes: { '*': 'legacy' },
      operatorToken: ALICE,
      upstreams: { sandbox: { legacy: 'http://127.0.0.1:9' } },
    });
    try {
      expect(
        (await client(a.url, { authorization: `Bearer ${ALICE}` }).put('/_paybridge/routes/L1', { mode: 'canary:10%' }))
          .status,
      ).toBe(200);
      const check = spawnBin(['routes', '--gateway', a.url, '--gateway', b.url, '--operator-token', ALICE]);
      expect(await check.exited).toBe(1);
      expect(check.stdout()).toMatch(/^Replicas: 2 configurations among 2: not every replica took the change$/m);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);

  it('without a file the operator API sets the table, and a reload (SIGHUP) keeps its changes and says so', async () => {
    const gw = await spawnGateway(['--mode', '*=legacy', '--operator-token', ALICE]);
    const operator = client(gw.url, { authorization: `Bearer ${ALICE}` });
    try {
      expect((await operator.put('/_paybridge/routes/L1', { mode: 'shadow' })).status).toBe(200);
      gw.child.kill('SIGHUP');
      await vi.waitFor(
        () =>
          expect(gw.stdout()).toContain(
            'configuration reloaded: no configuration file: the route table stays as the operator API set it',
          ),
        { timeout: 5_000 },
      );
      const table = (await operator.get('/_paybridge/routes')).body;
      expect(table.routes.find((r: { route: string }) => r.route === 'L1').mode).toBe('shadow');
      expect(table).toMatchObject({ version: 1, source: 'operator operator' });
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
    gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'legacy' },
      operatorToken: ALICE,
      shadow: { readyAfter: 2, learnSample: 0 },
    });
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('cuts one merchant over first (its credential tells the gateway who it is), reports it per merchant and per client, and takes the override back', async () => {
    const operator = client(gw.url, { authorization: `Bearer ${ALICE}` });
    for (const [body, detail] of [
      [{ merchant: 'solo', mode: 'shadow' }, 'merchant: "solo" is not a mcht_ id'],
      [{ merchant: 'mcht_solo', sample: 0.5 }, "sample: a sample rate is the route's"],
    ] as const)
      expect((await operator.put('/_paybridge/routes/L3', body)).body).toMatchObject({
        errorCode: 'invalid_request',
        detail: expect.stringContaining(detail),
      });
    const set = await operator.put('/_paybridge/routes/L3', { merchant: 'mcht_solo', mode: 'shadow' });
    expect(set.body.merchants).toEqual({ mcht_solo: { L3: 'shadow' } });
    const orderOf = async (key: string) =>
      (await sb.current(key).post('/orders', currentOrder())).body.OnlineOrder.order.orderId as string;
    const soloOrder = await orderOf(KEYS.soloSk);
    const otherOrder = await orderOf(KEYS.otherSk);
    const read = (key: string, order: string, ua: string) =>
      client(gw.url, { 'Limepay-SecretKey': key, 'User-Agent': ua }).get(`/orders/${order}`);
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
    expect(l3.byClient).toEqual({
      wordpress: { compared: 2, matched: 2, state: 'ready' },
      dotnet: { compared: 2, matched: 2, state: 'ready' },
    });
    const cleared = await operator.put('/_paybridge/routes/L3', { merchant: 'mcht_solo', mode: null });
    expect(cleared.body.merchants).toEqual({});
    expect((await read(KEYS.soloSk, soloOrder, 'curl/8')).status).toBe(200);
    await gw.gateway.shadow.idle();
    expect(
      (await operator.get('/_paybridge/report')).body.routes.find((r: { route: string }) => r.route === 'L3').compared,
    ).toBe(4);
  });
});
