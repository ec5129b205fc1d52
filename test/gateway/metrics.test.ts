/** /metrics is Prometheus text a parser and promtool read: the gateway's own series and prom-client's process metrics under their standard names, each metric once. */
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the parser ships no types
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { logSink, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { promtool as promtoolTool } from '../helpers/tools.js';

const promtool = promtoolTool();

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
const logs = logSink();
beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } } }, logs.stream);
});

type Family = { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string }[] };
async function families(): Promise<Record<string, Family>> {
  const res = await client(gw.url).get('/metrics');
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return Object.fromEntries((parsePrometheusTextFormat(res.text) as Family[]).map((f) => [f.name, f]));
}

/** Writes raw bytes on a fresh connection; resolves with everything read until the gateway closes it. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve(out));
  });
}
afterAll(async () => {
  await gw.close();
  await sb.close();
});

describe('/metrics', () => {
  it('parses as Prometheus text with the request, upstream and process metrics, each name once', async () => {
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/transactions/tran_missing');
    const res = await client(gw.url).get('/metrics');
    const names = (parsePrometheusTextFormat(res.text) as Family[]).map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const byName = await families();
    expect(byName.paybridge_requests_total!.type).toBe('COUNTER');
    expect(byName.paybridge_requests_total!.metrics).toContainEqual(
      expect.objectContaining({ labels: { route: 'L6', mode: 'current', status: '404' }, value: '1' }),
    );
    expect(byName.paybridge_request_duration_seconds!.type).toBe('HISTOGRAM');
    // every upstream call answered: none left counted in flight
    expect(byName.paybridge_upstream_in_flight).toMatchObject({ type: 'GAUGE', metrics: [{ value: '0' }] });
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
      'paybridge_merchant_key_lookups_total',
    ])
      expect(byName[name], name).toBeDefined();
  });

  it.skipIf(promtool.skip)(
    "passes promtool check metrics, but for prom-client's three standard Node.js gauges named _total",
    async () => {
      await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/transactions/tran_missing');
      const text = (await client(gw.url).get('/metrics')).text;
      const checked = spawnSync(promtool.path(), ['check', 'metrics'], { input: text, encoding: 'utf8' });
      const problems = `${checked.stdout}${checked.stderr}`.trim().split('\n').filter(Boolean);
      // the names every Node.js dashboard reads (nodejs_active_handles_total, ...): kept as they are
      expect(
        problems.filter(
          (p) =>
            !/^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/.test(
              p,
            ),
        ),
      ).toEqual([]);
    },
  );

  it('counts and logs a request refused before its route was known, with the tracer the client got', async () => {
    const twoKeys = await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk, 'Limepay-Token': KEYS.marketplace }).get(
      '/orders/ordr_1',
    );
    const badPath = await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/%zz');
    expect([twoKeys.status, twoKeys.body.errorCode, badPath.status, badPath.body.errorCode]).toEqual([
      400,
      'invalid_credentials',
      400,
      'invalid_request',
    ]);
    // a header name with a space: Node's parser refuses it before the gateway sees a request
    const parser = await raw(
      `GET /orders/ordr_1 HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\nLimepay-SecretKey: ${KEYS.soloSk}\r\n\r\n`,
    );
    expect(parser).toMatch(/^HTTP\/1\.1 400 /);
    const parserTracer = (JSON.parse(parser.slice(parser.indexOf('\r\n\r\n') + 4)) as { tracer: string }).tracer;

    const byName = await families();
    expect(byName.paybridge_requests_total!.metrics).toContainEqual(
      expect.objectContaining({ labels: { route: 'refused', mode: 'none', status: '400' }, value: '2' }),
    );
    expect(byName.paybridge_client_refusals_total!.metrics).toContainEqual(
      expect.objectContaining({ labels: { status: '400', code: 'invalid_request' }, value: '1' }),
    );

    const records = logs.records();
    for (const { tracer, url } of [
      { tracer: twoKeys.body.tracer, url: '/orders/ordr_1' },
      { tracer: badPath.body.tracer, url: '/orders/%zz' },
    ])
      expect(records).toContainEqual(
        expect.objectContaining({
          msg: 'request',
          requestId: tracer,
          route: 'refused',
          mode: 'none',
          method: 'GET',
          url,
          status: 400,
        }),
      );
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 40,
        requestId: parserTracer,
        status: 400,
        errorCode: 'invalid_request',
        msg: 'request refused by the HTTP parser',
      }),
    );
    // the credentials are not in the lines
    expect(logs.lines.join('\n')).not.toContain(KEYS.soloSk);
  });
});
