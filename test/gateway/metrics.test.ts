/** /metrics is Prometheus text a parser reads: the gateway's own series and prom-client's process metrics, each metric once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the parser ships no types
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } } });
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

describe('/metrics', () => {
  it('parses as Prometheus text with the request, upstream and process metrics, each name once', async () => {
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/transactions/tran_missing');
    const res = await client(gw.url).get('/metrics');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const families = parsePrometheusTextFormat(res.text) as { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string }[] }[];
    const names = families.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    const byName = Object.fromEntries(families.map((f) => [f.name, f]));
    expect(byName.paybridge_requests_total!.type).toBe('COUNTER');
    expect(byName.paybridge_requests_total!.metrics).toContainEqual(expect.objectContaining({ labels: { route: 'L6', mode: 'current', status: '404' }, value: '1' }));
    expect(byName.paybridge_request_duration_seconds!.type).toBe('HISTOGRAM');
    for (const name of ['paybridge_process_cpu_user_seconds_total', 'paybridge_process_resident_memory_bytes', 'paybridge_nodejs_eventloop_lag_seconds', 'paybridge_nodejs_gc_duration_seconds', 'paybridge_merchant_key_lookups_total'])
      expect(byName[name], name).toBeDefined();
  });
});
