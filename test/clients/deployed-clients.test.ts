/**
 * The deployed legacy clients of legacy-api.md section 0, replayed as they put their calls on the wire,
 * (1) through the spawned gateway (`paybridge serve`, every route in current mode, the embedded sandbox),
 * (2) against the sandbox's legacy face directly, with answers equal to (1) ids and timestamps aside,
 * (3) through a gateway in shadow mode, every exchange compared and matching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShadowReport } from '../../src/shadow/ledger.js';
import { spawnGateway, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { normalize } from '../helpers/parity.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { dotnetSdk } from './dotnet.js';
import { magento } from './magento.js';
import { unblockCards, type Exchange, type Recorder, type Target } from './replay.js';
import { aprilPlugin } from './april.js';
import { wooCommerce } from './woocommerce.js';

const CLIENTS: [string, (target: Target) => Promise<Recorder>][] = [
  ['WooCommerce plugin 4.2.3 on WordPress (cURL)', (t) => wooCommerce(t, 'curl')],
  ['WooCommerce plugin 4.2.3 on WordPress (fsockopen)', (t) => wooCommerce(t, 'fsockopen')],
  ['Magento 2 plugin (Lpcheckout)', magento],
  ['LimepayApi.Net SDK', dotnetSdk],
];

let gateway: Awaited<ReturnType<typeof spawnGateway>>;
let legacyFace: string;
let currentFace: string;
const throughGateway = new Map<string, Exchange[]>();

beforeAll(async () => {
  gateway = await spawnGateway(['--mode', '*=current']);
  // the embedded sandbox's legacy face, as the start banner prints it
  legacyFace = /legacy (http:\/\/127\.0\.0\.1:\d+)/.exec(gateway.stderr())![1]!;
  currentFace = /current (http:\/\/127\.0\.0\.1:\d+)/.exec(gateway.stderr())![1]!;
}, 30_000);
afterAll(async () => {
  await gateway?.stop();
});

const comparable = (exchanges: Exchange[]) =>
  exchanges.map(({ step, status, body }) => ({ step, status, body: normalize(body) }));

describe('deployed clients through the gateway (current mode, embedded sandbox)', () => {
  for (const [name, replay] of CLIENTS)
    it(`${name}: every call answered as the client reads it`, async () => {
      await unblockCards(currentFace);
      const recorder = await replay({ base: gateway.url });
      throughGateway.set(name, recorder.exchanges);
    });
});

describe('the official current client (April WooCommerce plugin 1.0.3) on WordPress', () => {
  for (const transport of ['curl', 'fsockopen'] as const)
    it(`(${transport}) against the sandbox's current face: every call succeeds as the plugin's code judges it`, async () => {
      await unblockCards(currentFace);
      await aprilPlugin({ base: currentFace }, transport);
    });
  it('(cURL) through the gateway: its Bearer calls forwarded unchanged, every call succeeds', async () => {
    await unblockCards(currentFace);
    await aprilPlugin({ base: gateway.url }, 'curl');
  });
});

describe('the same replays against the sandbox legacy face directly', () => {
  for (const [name, replay] of CLIENTS)
    it(`${name}: equal answers, ids and timestamps aside`, async () => {
      await unblockCards(currentFace);
      const direct = await replay({ base: legacyFace });
      const translated = throughGateway.get(name);
      expect(translated, 'the gateway replay ran first').toBeDefined();
      expect(comparable(translated!)).toEqual(comparable(direct.exchanges));
    });
});

describe('the same replays in shadow mode', () => {
  let sb: TestSandbox;
  let shadow: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    sb = await startSandbox();
    shadow = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
      routes: { '*': 'shadow' },
      shadow: { log: logPath('shadow-clients', 'jsonl'), readyAfter: 1, learnSample: 0 },
      operatorToken: OPERATOR_TOKENS.clients,
      // L28's state read is Query Customers, which takes no merchant key: made with the operator's key
      serviceKey: KEYS.operator,
    });
  });
  afterAll(async () => {
    await shadow.close();
    await sb.close();
  });

  it('compares every exchange of every client, all matching', async () => {
    for (const [, replay] of CLIENTS) {
      await unblockCards(sb.currentUrl);
      await replay({ base: shadow.url });
    }
    await shadow.gateway.shadow.idle();
    const res = await client(shadow.url, { authorization: `Bearer ${OPERATOR_TOKENS.clients}` }).get(
      '/_paybridge/report',
    );
    const report = res.body as ShadowReport;
    const routes = report.routes.map((r) => r.route).sort();
    expect(routes).toEqual(['L1', 'L10', 'L12', 'L19', 'L28', 'L29', 'L3', 'L30', 'L31', 'L4', 'L6', 'L7', 'L9']);
    for (const route of report.routes) {
      expect(route.compared, route.route).toBeGreaterThan(0);
      expect(route.topDiffs, `${route.route}: ${JSON.stringify(route.topDiffs)}`).toEqual([]);
      expect(route.matchRate, route.route).toBe(1);
    }
  });
});
