/**
 * The deployed clients of legacy-api.md section 0 running their own code against the gateway:
 * the WooCommerce plugin on WordPress's HTTP API (cURL and fsockopen transports), the Magento 2
 * plugin on PHP's cURL, the LimepayApi.Net SDK compiled with Mono. Their sources are not part of this
 * project: point FIELD_WOOCOMMERCE, FIELD_MAGENTO and FIELD_DOTNET at checkouts (a work tree or a git
 * repository). A client whose sources or tools are missing is skipped with a line saying what to add.
 * The current generation's own deployed client, the official April WooCommerce plugin (FIELD_APRIL),
 * runs its PHP the same way against the embedded sandbox's current face, behind its own TLS terminator
 * (its host name routed there): the current face must serve it unchanged.
 *
 *   npm run field [-- [--mode ROUTE=MODE ...] [woocommerce] [magento] [dotnet] [april]]
 *
 * `--mode` is passed to `paybridge serve` (default: every route current). In shadow or canary mode
 * the clients' exchanges are compared as they go, and the run fails on a route whose comparisons do
 * not all match (the gateway's report, once its comparison queue is empty).
 *
 * One gateway (`paybridge serve`, embedded sandbox) behind a TLS terminator for the clients that
 * hard-code the legacy host name; test cards are unblocked between clients, as each declines one.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BIN, shadowDrained, spawnBin } from '../bench/lib.mjs';
import { makeCertificate, startFront } from './front.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const wordpress = process.env.WORDPRESS_DIR ?? '/usr/share/wordpress';
const has = (command, args = ['--version']) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

const CLIENTS = {
  woocommerce: {
    source: 'FIELD_WOOCOMMERCE',
    repository: 'common-repository/limepay-woocommerce-gateway',
    marker: 'includes/limepay-api.php',
  },
  magento: { source: 'FIELD_MAGENTO', repository: 'khoazero123/limepay-lpcheckout', marker: 'Helper/Api.php' },
  dotnet: {
    source: 'FIELD_DOTNET',
    repository: 'SelectSystemsInternational/LimepayApiSDK',
    marker: 'LimepayApi.Net/LimepayApi.cs',
  },
  april: {
    source: 'FIELD_APRIL',
    repository: 'common-repository/april-payment-gateway-for-woocommerce',
    marker: 'includes/april-api.php',
  },
};

/** What the client needs on this machine beyond its sources, or null when all is there. */
function missingTools(name) {
  if (name === 'dotnet')
    return has('mcs') && has('mono')
      ? null
      : 'Mono (Debian: mono-mcs mono-runtime libmono-system-net-http4.0-cil libmono-system-runtime-serialization4.0-cil libmono-system-componentmodel-dataannotations4.0-cil)';
  if (!has('php') || !execFileSync('php', ['-m']).toString().split('\n').includes('curl'))
    return 'PHP with cURL (Debian: php-cli php-curl)';
  if ((name === 'woocommerce' || name === 'april') && !existsSync(join(wordpress, 'wp-includes/class-wp-http.php')))
    return `WordPress at ${wordpress} (Debian: wordpress, or WORDPRESS_DIR)`;
  return null;
}

/** The client's sources as a directory: the one given, or its repository's HEAD written out to `work`. */
function sources(name, work) {
  const { source, repository, marker } = CLIENTS[name];
  const dir = process.env[source];
  if (!dir) return { skip: `${source} is not set (a checkout of https://github.com/${repository})` };
  if (existsSync(join(dir, marker))) return { dir };
  const out = join(work, name);
  mkdirSync(out, { recursive: true });
  try {
    execFileSync('sh', ['-c', 'git -C "$0" archive HEAD | tar -x -C "$1"', dir, out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (err) {
    return {
      skip: `${source}=${dir} holds neither ${marker} nor a git repository: ${String(err.stderr ?? err.message).trim()}`,
    };
  }
  return existsSync(join(out, marker)) ? { dir: out } : { skip: `${source}=${dir}: no ${marker} in its HEAD` };
}

/** Runs one command to its end, its output prefixed; resolves to its exit code. */
function run(label, command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on(
        'line',
        (line) => line.trim() && console.log(`${label.padEnd(22)} ${line}`),
      );
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** `paybridge serve` on a free port with the embedded sandbox; its URL and the sandbox's current face. */
async function startGateway(args) {
  // the TLS terminator (front.mjs) runs on this machine: its X-Forwarded-Host/-Proto are believed
  const proc = await spawnBin(
    ['serve', '--port', '0', '--log-level', 'warn', '--trusted-proxies', '127.0.0.1,::1', ...args],
    /listening on (\S+)[\s\S]*?sandbox: current (\S+)/,
  );
  return { url: proc.match[1], current: proc.match[2], stop: proc.stop };
}

/** The sandbox blocks a card after repeated declines; every client declines the same test card once. */
async function unblockCards(current) {
  const headers = { authorization: 'Bearer sandbox_sk_solo_secret_key', 'content-type': 'application/json' };
  const list = await (await fetch(`${current}/sources/blockedcards`, { headers })).json();
  for (const block of Array.isArray(list) ? list : (list.items ?? []))
    await fetch(`${current}/sources/blockedcards/${block.cardBlockId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ UnblockCard: {} }),
    });
}

function usage(message) {
  console.error(`field: ${message}`);
  process.exit(2);
}
const named = [];
const modes = [];
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === '--mode' && process.argv[i + 1]) modes.push(process.argv[++i]);
  else if (arg.startsWith('--')) usage(`unknown option ${arg} (--mode ROUTE=MODE)`);
  else named.push(arg);
}
const compares = modes.some((m) => /=(shadow|canary)$/.test(m));
const operatorToken = randomBytes(18).toString('base64url');
/** Once the comparison queue is empty: per route, the comparisons and whether all matched. */
async function shadowVerdicts(url) {
  await shadowDrained(url);
  const report = await (
    await fetch(`${url}/_paybridge/report`, { headers: { authorization: `Bearer ${operatorToken}` } })
  ).json();
  return report.routes.map((r) => [
    `compared ${r.route}`,
    r.unexplained === 0 ? 'passed' : 'FAILED',
    `${r.compared} compared, ${r.unexplained} unexplained${r.topDiffs.length ? `, differs at ${r.topDiffs.map((d) => d.path).join(', ')}` : ''}${Object.keys(r.skipped).length ? `, skipped ${JSON.stringify(r.skipped)}` : ''}`,
  ]);
}

const requested = named.length ? named : Object.keys(CLIENTS);
for (const name of requested) if (!CLIENTS[name]) usage(`unknown client ${name} (${Object.keys(CLIENTS).join(', ')})`);
if (!existsSync(BIN)) usage('build first: npm run build');
if (!has('openssl', ['version'])) usage('openssl is needed for the TLS terminator');

const work = mkdtempSync(join(tmpdir(), 'paybridge-field-'));
const gateway = await startGateway([
  ...modes.flatMap((m) => ['--mode', m]),
  ...(compares ? ['--operator-token', operatorToken] : []),
]);
const certificate = makeCertificate(work);
const front = await startFront(gateway.url, certificate);
// the current API's host name, as the official April plugin hard-codes it, routed to the embedded sandbox's current face
const currentFront = await startFront(gateway.current, certificate);
const results = [];
try {
  for (const name of requested) {
    const missing = missingTools(name);
    const src = missing ? { skip: `needs ${missing}` } : sources(name, work);
    if (src.skip) {
      results.push([name, 'skipped', src.skip]);
      continue;
    }
    const env = {
      FIELD_GATEWAY: gateway.url,
      FIELD_PLUGIN: src.dir,
      FIELD_CERT: join(work, 'cert.pem'),
      FIELD_TLS: front.tls,
      WORDPRESS_DIR: wordpress,
    };
    const php = ['-d', 'error_reporting=E_ALL & ~E_DEPRECATED', '-d', 'display_errors=stderr'];
    if (name === 'woocommerce')
      for (const transport of ['curl', 'fsockopen']) {
        await unblockCards(gateway.current);
        const code = await run(`woocommerce/${transport}`, 'php', [...php, join(here, 'php/woocommerce.php')], {
          ...env,
          FIELD_WP_TRANSPORT: transport,
        });
        results.push([`woocommerce (${transport})`, code === 0 ? 'passed' : 'FAILED']);
      }
    if (name === 'april')
      for (const transport of ['curl', 'fsockopen']) {
        await unblockCards(gateway.current);
        const code = await run(`april/${transport}`, 'php', [...php, join(here, 'php/april.php')], {
          ...env,
          FIELD_TLS: currentFront.tls,
          FIELD_CURRENT: gateway.current,
          FIELD_WP_TRANSPORT: transport,
        });
        results.push([`april (${transport})`, code === 0 ? 'passed' : 'FAILED']);
      }
    if (name === 'magento') {
      await unblockCards(gateway.current);
      // PHP's cURL takes the legacy host name through the proxy (libcurl reads https_proxy), trusting the terminator
      const code = await run(
        'magento',
        'php',
        [...php, '-d', `curl.cainfo=${env.FIELD_CERT}`, join(here, 'php/magento.php')],
        { ...env, https_proxy: front.proxy },
      );
      results.push(['magento', code === 0 ? 'passed' : 'FAILED']);
    }
    if (name === 'dotnet') {
      await unblockCards(gateway.current);
      const refs = [
        '-r:System.Net.Http',
        '-r:System.Runtime.Serialization',
        '-r:System.ComponentModel.DataAnnotations',
      ];
      const sdkFiles = execFileSync('find', [
        join(src.dir, 'LimepayApi.Net'),
        '-name',
        '*.cs',
        '-not',
        '-path',
        '*/Wrappers/*',
      ])
        .toString()
        .trim()
        .split('\n');
      const sdk = join(work, 'LimepayApi.Net.dll');
      const flow = join(work, 'flow.exe');
      // the SDK as its csproj builds it (Wrappers excluded), plus what it takes from Newtonsoft.Json and .NET Core 3
      let code = await run('dotnet (build)', 'mcs', [
        '-nowarn:108,114,168,219,414,618,649',
        '-target:library',
        `-out:${sdk}`,
        ...refs,
        join(here, 'dotnet/Shims.cs'),
        ...sdkFiles,
      ]);
      if (code === 0)
        code = await run('dotnet (build)', 'mcs', [`-out:${flow}`, `-r:${sdk}`, ...refs, join(here, 'dotnet/Flow.cs')]);
      if (code === 0) code = await run('dotnet', 'mono', [flow, gateway.url], { MONO_PATH: work });
      results.push(['dotnet', code === 0 ? 'passed' : 'FAILED']);
    }
  }
  if (compares) results.push(...(await shadowVerdicts(gateway.url)));
} finally {
  await front.close();
  await currentFront.close();
  await gateway.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log('');
for (const [name, verdict, why] of results) console.log(`${name.padEnd(24)} ${verdict}${why ? `: ${why}` : ''}`);
// a client named on the command line and skipped is a failure; with none named, skipping is fine
process.exitCode = results.some(([, verdict]) => verdict === 'FAILED' || (named.length > 0 && verdict === 'skipped'))
  ? 1
  : 0;
