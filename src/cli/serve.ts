import { existsSync, unwatchFile, watchFile } from 'node:fs';
import {
  commandLineSources,
  ConfigError,
  configSchema,
  hasNoUpstream,
  loadConfig,
  SETTINGS,
  type Config,
} from '../config.js';
import { createGateway } from '../gateway/server.js';
import { createSandbox, type Fixtures } from '../sandbox/index.js';
import { onShutdown } from './util.js';
import { PaybridgeError } from '../errors.js';

export const SERVE_USAGE = `paybridge serve [--config FILE] [flags]
  Runs the gateway. Settings come from --config FILE (or PAYBRIDGE_CONFIG), PAYBRIDGE_* variables and
  flags, later winning. With no upstream configured it embeds the sandbox and prints a curl command
  for a legacy call and the demo shop's address.

  --config FILE                         a JSON config file: the settings below by their file names
                                        (listen.port, timeouts.requestMs, shadow.sample, ...; README,
                                        Configuration); an unknown or misspelt key stops start-up, named.
                                        Re-read on SIGHUP and when rewritten; it alone sets the route
                                        table (routes, routesByMerchant, shadow.sample, canaryKey)
  --config-optional                     the file may not exist yet (a ConfigMap not created): start
                                        without it and read it once it appears (PAYBRIDGE_CONFIG_OPTIONAL=true)
${SETTINGS.map((s) => `  --${`${s.flag} ${s.kind === 'modes' ? 'ROUTE=MODE' : s.kind === 'file' ? 'FILE' : s.kind === 'list' ? 'A,B' : s.kind === 'string' ? 'VALUE' : 'N'}`.padEnd(36)}${s.describe} (default: ${s.default}; ${s.env}; file: ${s.path.replace('.*', '')})`).join('\n')}`;

/**
 * Calls `changed` when the file at `path` is rewritten or replaced: polled (a Kubernetes ConfigMap
 * volume swaps a symlink, which events on the file itself miss), at most once a second.
 */
function watchConfigFile(path: string, changed: () => void): void {
  watchFile(path, { interval: 1000, persistent: false }, (now, before) => {
    if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) changed();
  });
}

/** What a shutdown keeps back from its budget to write the records of comparisons it cut short. */
const SHUTDOWN_WRITE_MS = 500;

/** The embedded sandbox's URLs, merchant tokens and marketplace key as the gateway's sandbox upstream. */
function withSandbox(config: Config, urls: { currentUrl: string; legacyUrl: string }, fixtures: Fixtures): Config {
  const merchantTokens = Object.fromEntries(
    fixtures.merchants.flatMap((m) => (m.merchantToken ? [[m.merchantToken, m.merchantId]] : [])),
  );
  return Object.freeze(
    configSchema.parse({
      ...config,
      upstreams: { sandbox: { current: urls.currentUrl, legacy: urls.legacyUrl }, live: {} },
      merchantTokens: { ...merchantTokens, ...config.merchantTokens },
      // the operator's marketplace key: merchant tokens' look-ups, and the calls the current API refuses to a merchant key
      serviceKey:
        config.serviceKey ?? (fixtures.marketplaces.find((m) => m.operator) ?? fixtures.marketplaces[0])?.apiKey,
    }),
  );
}

/** A legacy call that works as printed against the embedded sandbox: create an order with a secret key. */
function exampleCurl(baseUrl: string, secretKey: string): string {
  const body = JSON.stringify({
    internalOrderId: 'demo-1',
    paymentAmount: { amount: 1000, currency: 'AUD' },
    description: 'Demo order',
    billing: { name: 'Demo Shopper' },
  });
  return `curl -s -X POST ${baseUrl}/orders -H 'Limepay-SecretKey: ${secretKey}' -H 'Content-Type: application/json' -d '${body}'`;
}

export async function runServe(argv: string[]): Promise<void> {
  // the file is read again on each reload
  const first = commandLineSources(argv, process.env);
  const { fileName } = first;
  const read = () => loadConfig(commandLineSources(argv, process.env));
  let config = loadConfig(first);
  const declaredConfig = config;
  /** Whether the configuration file was there when last read (an optional one may not be yet). */
  let fileRead = fileName !== undefined && existsSync(fileName);

  let sandbox: ReturnType<typeof createSandbox> | undefined;
  if (hasNoUpstream(config)) {
    // both generations of the embedded sandbox share one store: a sent write would be executed twice
    const send = Object.entries(config.shadow.writeSafety).find(([, safety]) => safety === 'send');
    if (send)
      throw new ConfigError(
        `shadow.writeSafety.${send[0]}: send cannot be used with the embedded sandbox (its two faces share one store, so a write sent to both would move money twice); configure an isolated candidate upstream`,
      );
    sandbox = createSandbox({ allowedOrigins: config.sandbox.allowedOrigins });
    const urls = await sandbox.listen({ host: '127.0.0.1', port: 0, legacyPort: 0 });
    config = withSandbox(config, urls, sandbox.fixtures);
  }
  // merchant tokens of every sandbox merchant, inside the demo marketplace or not, read from its store
  const store = sandbox?.store;
  const gateway = await createGateway({
    config,
    declaredConfig,
    ...(fileName ? { configFile: fileName } : {}),
    ...(store
      ? {
          lookupMerchantKey: async (merchantId: string) => {
            const key = store.merchants.get(merchantId)?.publicKey;
            if (!key)
              throw new PaybridgeError(
                'unauthenticated',
                'Limepay-MerchantToken: the merchant token names no sandbox merchant',
              );
            return key;
          },
        }
      : {}),
  });
  const address = await gateway.listen();
  const reachable = address.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://127.0.0.1:');
  // one start line: for a collector the JSON line; on a terminal the lines below say it
  if (!gateway.prettyLogs)
    gateway.app.log.info(
      {
        url: reachable,
        upstreams: config.upstreams,
        routes: config.routes,
        embeddedSandbox: sandbox !== undefined,
        configHash: gateway.live.hash(),
      },
      'paybridge gateway listening',
    );
  if (fileName && !fileRead)
    gateway.app.log.warn(
      { config: fileName },
      'configuration file not there yet (--config-optional): started without it; it is read once it appears',
    );
  gateway.flushLogs();
  const lines = [`paybridge gateway listening on ${reachable}`];
  for (const env of ['sandbox', 'live'] as const) {
    const u = config.upstreams[env];
    if (u.current || u.legacy) lines.push(`  ${env}: current ${u.current ?? '-'}  legacy ${u.legacy ?? '-'}`);
  }
  if (sandbox) {
    const solo = sandbox.fixtures.merchants.find((m) => m.marketplaceId === null) ?? sandbox.fixtures.merchants[0]!;
    lines.push('  upstream: the embedded sandbox (in memory; see README for its seeded credentials)');
    lines.push('try a legacy call:', `  ${exampleCurl(reachable, solo.secretKey)}`);
    lines.push(
      `or open the demo shop (the checkout component, legacy calls through this gateway): ${reachable}/sandbox/shop`,
    );
  }
  if (!gateway.prettyLogs)
    lines.push(
      'logs: JSON lines on standard output (to read them: npm start | npx pino-pretty, or --log-format pretty)',
    );

  // SIGHUP, or the configuration file rewritten (a ConfigMap update): read it again, with the same
  // validation as at start; a bad one keeps the running configuration and says why. The file's route
  // table applies at once; every other setting that differs is named as not applied (a restart applies it).
  const reload = (why: string) => {
    let next: Config;
    try {
      // a file that was there and is gone (a ConfigMap deleted) is refused, not taken for the defaults
      if (fileName && fileRead && !existsSync(fileName))
        throw new ConfigError(`--config: ${fileName}: no such file any more`);
      next = read();
    } catch (err) {
      gateway.live.refused(why, (err as Error).message);
      gateway.app.log.error(
        { reload: why, err: { message: (err as Error).message } },
        'configuration reload refused: the running configuration stays',
      );
      gateway.flushLogs();
      return;
    }
    fileRead ||= fileName !== undefined && existsSync(fileName);
    const outcome = gateway.live.reload(next, why);
    const routes = outcome.routesApplied
      ? "the route table is the file's"
      : 'no configuration file: the route table stays as the operator API set it';
    const notApplied =
      outcome.notApplied.length > 0 ? `; not applied, a restart applies them: ${outcome.notApplied.join(', ')}` : '';
    gateway.app.log[outcome.notApplied.length > 0 ? 'warn' : 'info'](
      {
        reload: why,
        version: outcome.table.version,
        configHash: gateway.live.hash(),
        routesApplied: outcome.routesApplied,
        notApplied: outcome.notApplied,
      },
      `configuration reloaded: ${routes}${notApplied}`,
    );
    gateway.flushLogs();
  };
  process.on('SIGHUP', () => reload('SIGHUP'));
  if (fileName) watchConfigFile(fileName, () => reload('file'));

  onShutdown(async () => {
    if (fileName) unwatchFile(fileName);
    const started = Date.now();
    const timer = setTimeout(() => process.exit(1), config.timeouts.shutdownMs).unref();
    // comparisons still queued get what is left of the budget, less the time to write their records
    await gateway.close(started + config.timeouts.shutdownMs - SHUTDOWN_WRITE_MS);
    await sandbox?.close();
    clearTimeout(timer);
    process.stderr.write(`paybridge gateway stopped after ${Date.now() - started} ms\n`);
  });
  // last: whoever waits for this line may signal at once, and every handler is in place by now
  process.stderr.write(`${lines.join('\n')}\n`);
}
