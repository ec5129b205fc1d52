import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startSlowUpstream } from '../helpers/fake-upstream.js';
import { spawnGateway, tempJson } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS } from '../helpers/sandbox.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { spawnBin } from '../helpers/spawn.js';

const OPERATOR = OPERATOR_TOKENS.config;

describe('configuration', () => {
  it('takes the file, then PAYBRIDGE_* variables, then flags, later winning', () => {
    const config = loadConfig({
      file: {
        listen: { port: 9000, host: '0.0.0.0' },
        routes: { '*': 'current', L7: 'legacy' },
        timeouts: { headersMs: 1000 },
      },
      env: {
        PAYBRIDGE_PORT: '9100',
        PAYBRIDGE_CURRENT_URL: 'http://current.example/',
        PAYBRIDGE_MODE: 'L6=legacy',
        HOME: '/root',
      },
      flags: { port: '9200', mode: ['L3=legacy', 'L6=current'] },
    });
    expect(config.listen).toEqual({ port: 9200, host: '0.0.0.0' });
    expect(config.upstreams.sandbox.current).toBe('http://current.example');
    expect(config.routes).toEqual({ '*': 'current', L7: 'legacy', L6: 'current', L3: 'legacy' });
    expect(config.timeouts).toMatchObject({ headersMs: 1000, connectMs: 2000 });
    expect(Object.isFrozen(config.timeouts)).toBe(true);
  });

  it('stops on an invalid or unknown setting, naming it', () => {
    const fails = (sources: Parameters<typeof loadConfig>[0], message: RegExp) => {
      expect(() => loadConfig(sources)).toThrow(ConfigError);
      expect(() => loadConfig(sources)).toThrow(message);
    };
    fails({ file: { timeouts: { headersMs: -1 } } }, /timeouts\.headersMs: /);
    fails({ file: { listen: { prot: 1 } } }, /listen\.prot: unknown field/);
    fails(
      { file: { routes: { L99: 'current' } } },
      new RegExp(`routes\\.L99: expected \\* or a route id of the route table \\(L1-${LEGACY_ROUTES.at(-1)!.id}\\)`),
    );
    expect(loadConfig({ file: { routes: { L32: 'current' } } }).routes).toMatchObject({ L32: 'current' });
    // the routes of the deployed clients take modes like the others
    expect(loadConfig({ flags: { mode: ['L28=legacy', 'L31=shadow'] } }).routes).toMatchObject({
      L28: 'legacy',
      L31: 'shadow',
    });
    fails({ file: { routes: { L1: 'mirror' } } }, /routes\.L1: /);
    fails({ env: { PAYBRIDGE_PROT: '1' } }, /PAYBRIDGE_PROT: unknown setting/);
    fails({ env: { PAYBRIDGE_PORT: 'eighty' } }, /PAYBRIDGE_PORT: expected a non-negative integer/);
    fails({ flags: { 'current-url': 'not a url' } }, /upstreams\.sandbox\.current: /);
    fails({ flags: { 'service-key': 'sandbox_sk_x' } }, /serviceKey: expected a marketplace API key/);
    fails({ flags: { mode: ['L7'] } }, /--mode: expected ROUTE=MODE/);
    fails(
      { flags: { 'merchant-tokens': '/nonexistent/tokens.json' } },
      /--merchant-tokens: \/nonexistent\/tokens\.json: no such file$/,
    );
    // the route table of a gateway with a configuration file is the file's: a flag or variable would win over it at every reload
    const beside: [Parameters<typeof loadConfig>[0], string][] = [
      [{ flags: { mode: ['L1=legacy'] } }, '--mode'],
      [{ env: { PAYBRIDGE_MODE: 'L1=legacy' } }, 'PAYBRIDGE_MODE'],
      [{ flags: { 'shadow-sample': '0.5' } }, '--shadow-sample'],
    ];
    for (const [sources, name] of beside)
      fails(
        { file: { routes: { L1: 'shadow' } }, fileName: 'paybridge.json', ...sources },
        new RegExp(`^invalid configuration: ${name}: the route table .* is set in that file \\(paybridge\\.json\\)`),
      );
    // without a file, flags set it
    expect(loadConfig({ flags: { mode: ['L1=canary:12.5%'] } }).routes).toMatchObject({ L1: 'canary:12.5%' });
    for (const mode of ['canary:101%', 'canary:10', 'canary:-1%', 'canary:1.234%'])
      fails({ file: { routes: { L1: mode } } }, /routes\.L1: expected current, legacy, shadow, canary or canary:N%/);
  });

  it('a configuration file that is not there: one line naming it; declared optional, the gateway starts without it, reads it once it appears, and refuses it gone', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'paybridge-')), 'paybridge.json');
    const refused = spawnBin(['serve', '--port', '0', '--config', missing]);
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toBe(
      `paybridge: invalid configuration: --config: ${missing}: no such file (to start without it and read it once it appears, add --config-optional)\n`,
    );

    const gw = await spawnGateway(['--config', missing, '--config-optional'], { PAYBRIDGE_OPERATOR_TOKEN: OPERATOR });
    const operator = client(gw.url, { authorization: `Bearer ${OPERATOR}` });
    const modeOf = async (route: string) =>
      ((await operator.get('/_paybridge/routes')).body as { routes: { route: string; mode: string }[] }).routes.find(
        (r) => r.route === route,
      )!.mode;
    try {
      await vi.waitFor(() => expect(gw.stdout()).toContain('configuration file not there yet (--config-optional)'));
      expect(await modeOf('L1')).toBe('current');
      // the ConfigMap created: the file appears, and its route table applies
      writeFileSync(missing, JSON.stringify({ routes: { '*': 'current', L1: 'legacy' } }));
      await vi.waitFor(async () => expect(await modeOf('L1')).toBe('legacy'), { timeout: 8_000, interval: 200 });
      // the ConfigMap deleted: the running configuration stays, and the refusal is in the log and the metrics
      rmSync(missing);
      await vi.waitFor(() => expect(gw.stdout()).toContain('configuration reload refused'), {
        timeout: 8_000,
        interval: 200,
      });
      expect(await modeOf('L1')).toBe('legacy');
      expect((await client(gw.url).get('/metrics')).text).toMatch(/^paybridge_config_last_reload_successful 0$/m);
      expect(gw.child.exitCode).toBeNull();
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 30_000);

  it('the bin refuses to start on an invalid config file, naming the key', async () => {
    const proc = spawnBin([
      'serve',
      '--port',
      '0',
      '--config',
      tempJson('config.json', { upstreams: { sandbox: { current: 'http://x.example', extra: 1 } } }),
    ]);
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toMatch(/invalid configuration: upstreams\.sandbox\.extra: unknown field/);
  });
});

describe('graceful shutdown', () => {
  it('finishes the in-flight request on SIGTERM, then exits 0', async () => {
    const slow = await startSlowUpstream(1_500);
    const gw = await spawnGateway(['--current-url', slow.url, '--legacy-url', slow.url]);
    try {
      const inFlight = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).post('/orders/ordr_1/pay', {
        paymentToken: 'ptkn_1',
      });
      // in flight: the upstream has the pay, and answers it 1.5 s later
      await vi.waitFor(() => expect(slow.counts.get('POST /orders/ordr_1/pay')).toBe(1), {
        timeout: 10_000,
        interval: 10,
      });
      gw.child.kill('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ transactionId: 'tran_1', type: 'paycard' });
      const code = await gw.exited;
      expect(code).toBe(0);
      expect(slow.counts.get('POST /orders/ordr_1/pay')).toBe(1);
      await expect(fetch(`${gw.url}/healthz`)).rejects.toThrow();
    } finally {
      await gw.stop();
      await slow.close();
    }
  });
});
