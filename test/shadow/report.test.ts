import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { loadConfig } from '../../src/config.js';
import { createGateway, type Gateway } from '../../src/gateway/server.js';
import { createTranslator } from '../../src/translate/index.js';
import { mappingsWithBrokenL6Fee } from '../helpers/broken-mapping.js';
import { browserMissing, browserPath } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import { LOG_DIR, logStream } from '../helpers/logs.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { KEYS, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';

const run = promisify(execFile);

/** The bin's exit code and output, whatever the code. */
async function report(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'report', ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
const OPERATOR = OPERATOR_TOKENS.page;
const dir = LOG_DIR;
let sb: TestSandbox;
const gateways: Gateway[] = [];

async function instance(name: string, brokenL6: boolean) {
  const mappings = brokenL6 ? mappingsWithBrokenL6Fee() : ALL_MAPPINGS;
  const config = loadConfig({
    file: {
      listen: { host: '127.0.0.1', port: 0 },
      logLevel: 'info',
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'shadow' },
      shadow: { log: join(dir, `${name}-${process.pid}.jsonl`), instance: name, readyAfter: 3, learnSample: 0 },
      operatorToken: OPERATOR,
    },
  });
  const gateway = await createGateway({
    config,
    logStream: logStream(`gateway-${name}`),
    translator: createTranslator({ mappings }),
  });
  gateways.push(gateway);
  return { gateway, url: await gateway.listen() };
}

/** The tracer of a 404 the legacy upstream answered a client: what a customer quotes to support. */
let findId: string;
let a: Awaited<ReturnType<typeof instance>>;
let b: Awaited<ReturnType<typeof instance>>;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  sb = await startSandbox();
  a = await instance('gw-a', false);
  b = await instance('gw-b', true);
  const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
  const order = (await sb.current(KEYS.soloSk).get(`/transactions/${tx}`)).body.purchaseDetails.orderId;
  const legacy = (url: string) => client(url, { 'Limepay-SecretKey': KEYS.soloSk });
  for (let i = 0; i < 3; i++) {
    await legacy(a.url).get(`/transactions/${tx}`);
    await legacy(a.url).get(`/orders/${order}`);
  }
  await legacy(b.url).get(`/transactions/${tx}`);
  await legacy(b.url).get(`/orders/${order}`);
  // b shows all three verdicts: L3 collecting (1 of 3), L6 mismatch (the broken fee), L17 ready
  for (let i = 0; i < 3; i++) await legacy(b.url).get(`/transactions?merchantOrderId=${order}`);
  // a bad client request on a ready route: both generations refuse it alike (their tracers differ)
  findId = (await legacy(a.url).get('/transactions/tran_missing')).body.tracer;
  for (const g of gateways) await g.shadow.idle();
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await sb.close();
});

describe('paybridge report', () => {
  it('merges the records of several gateway instances into one report per route', async () => {
    const files = [join(dir, `gw-a-${process.pid}.jsonl`), join(dir, `gw-b-${process.pid}.jsonl`)];
    expect(readFileSync(files[1]!, 'utf8')).toContain('"instance":"gw-b"');
    const { code, stdout, stderr } = await report(['--ready-after', '3', ...files]);
    // a MISMATCH verdict fails the default gate: the report is printed, the exit code is 3
    expect(code).toBe(3);
    expect(stderr).toContain('--fail-on mismatch: L6 mismatch');
    expect(stdout).toMatch(/^shadow report: 12 comparisons, 11 matching/m);
    expect(stdout).toMatch(
      /^L3\s+READY\s+4 compared\s+100\.0% match\s+ready: 4 comparisons in the 1h up to the last comparison, none unexplained \(3 needed\)$/m,
    );
    expect(stdout).toMatch(
      /^L6\s+MISMATCH\s+5 compared\s+80\.0% match\s+mismatch: 1 unexplained in the 1h up to the last comparison \(2xx: 1 at fee\); the route stays so until the window passes them or an operator accepts them$/m,
    );
    // the window by path kind: the bad request's 404 is judged with the rest, and matched
    expect(stdout).toMatch(/^\s+window \S+ to \S+: 2xx 4 \(1 unexplained at fee\), 4xx not_found 1$/m);
    expect(stdout).toMatch(/^L17\s+READY\s+3 compared\s+100\.0% match/m);
    expect(stdout).toMatch(/differs at fee \(1x\), e\.g\. \S+: 226 -> 30/);
    // latencies in whole milliseconds with one decimal
    expect(stdout).toMatch(/primary p50 \d+\.\d ms p99 \d+\.\d ms, candidate p50 \d+\.\d ms/);
    const json = JSON.parse(
      (await run(process.execPath, [BIN, 'report', '--json', '--fail-on', 'never', '--ready-after', '3', ...files]))
        .stdout,
    );
    expect(
      json.routes.map((r: { route: string; compared: number; state: string }) => [r.route, r.compared, r.state]),
    ).toEqual([
      ['L3', 4, 'ready'],
      ['L6', 5, 'mismatch'],
      ['L17', 3, 'ready'],
    ]);
    // one bad request did not block L6 on a: its comparison matched (tracers are ids)
    const bad = JSON.parse((await run(process.execPath, [BIN, 'report', '--json', '--find', findId, ...files])).stdout);
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ route: 'L6', primary: { status: 404 }, candidate: { status: 404 } });
    expect(bad[0].tracers.primary).toEqual(expect.any(String));
  });

  it('exits as a CI gate reads it: 0 when the verdicts pass --fail-on, 3 when not, 1 for what is not a record or an id not found, 2 for usage', async () => {
    const files = [join(dir, `gw-a-${process.pid}.jsonl`), join(dir, `gw-b-${process.pid}.jsonl`)];
    // gw-a alone: L3 and L6 ready
    expect((await report(['--ready-after', '3', files[0]!])).code).toBe(0);
    expect((await report(['--ready-after', '3', '--fail-on', 'not-ready', files[0]!])).code).toBe(0);
    // with gw-b: L6 mismatch; with a higher bar, L17 collecting
    expect((await report(['--ready-after', '3', '--fail-on', 'never', ...files])).code).toBe(0);
    const notReady = await report(['--ready-after', '5', '--fail-on', 'not-ready', files[0]!]);
    expect(notReady.code).toBe(3);
    expect(notReady.stderr).toMatch(/--fail-on not-ready: L3 collecting/);
    const unknown = await report(['--find', 'no-such-request-id', ...files]);
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no comparison with request id or tracer no-such-request-id'),
    });
    const garbage = join(dir, `garbage-${process.pid}.jsonl`);
    writeFileSync(garbage, 'this is not json\n{"type":"weather","time":"x"}\n');
    const bad = await report([files[0]!, garbage]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${garbage}:1: not JSON`);
    expect(bad.stderr).toContain(`${garbage}:2: not a shadow record`);
    expect(bad.stderr).toContain(`${garbage}: no shadow records`);
    expect(bad.stdout).toMatch(/^shadow report: /m);
    expect((await report(['--fail-on', 'sometimes', files[0]!])).code).toBe(2);
    expect((await report([])).code).toBe(2);
  });

  it.skipIf(browserMissing)(
    'shows the per-route table of a recorded run in a real browser, the three verdicts in their colours',
    async () => {
      const executablePath = browserPath();
      const browser = await chromium.launch({
        executablePath,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        // an operator's browser sends the token as a header (a proxy in front, or an extension), never in the URL
        const page = await browser.newPage({ extraHTTPHeaders: { authorization: `Bearer ${OPERATOR}` } });
        const res = await page.goto(`${a.url}/_paybridge/`);
        expect(res?.status()).toBe(200);
        await page.waitForSelector('table#routes');
        const rows = await page.$$eval('table#routes tbody tr', (trs) =>
          trs.map((tr) => ({
            route: tr.getAttribute('data-route'),
            cells: Array.from(tr.querySelectorAll('td')).map(
              (td) => (td as { textContent: string | null }).textContent?.trim() ?? '',
            ),
          })),
        );
        expect(rows.map((r) => r.route)).toEqual(['L3', 'L6']);
        expect(rows[0]!.cells[2]).toBe('3');
        expect(rows[0]!.cells[3]).toContain('100%');
        expect(rows[0]!.cells[6]).toBe(
          'ready: 3 comparisons in the 1h up to the last comparison, none unexplained (3 needed)',
        );
        const bar = await page.$eval(
          'tr[data-route="L3"] .bar div',
          (el) => (el as unknown as { style: { width: string } }).style.width,
        );
        expect(bar).toBe('100%');
        const stranger = await browser.newPage();
        expect((await stranger.goto(`${a.url}/_paybridge/?token=${OPERATOR}`))?.status()).toBe(401);
        await page.goto(`${b.url}/_paybridge/`);
        const states = await page.$$eval('table#routes tbody tr', (trs) =>
          trs.map((tr) => {
            const verdict: unknown = tr.querySelector('td.verdict');
            return [
              tr.getAttribute('data-route'),
              tr.getAttribute('data-state'),
              (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(verdict)
                .color,
            ];
          }),
        );
        expect(states).toEqual([
          ['L3', 'collecting', 'rgb(95, 107, 122)'],
          ['L6', 'mismatch', 'rgb(198, 40, 40)'],
          ['L17', 'ready', 'rgb(46, 125, 50)'],
        ]);
        await page.screenshot({ path: join(dir, 'shadow-report.png') });
      } finally {
        await browser.close();
      }
    },
  );
});
