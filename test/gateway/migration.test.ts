/**
 * docs/migration.md, run as written: each step's paybridge.json and every command of the guide, in
 * order, on one host (the gateway bin in a folder of its own) and on two replicas of deploy/kubernetes
 * (the Deployment's command line and variables, its working directory a folder of their own, the
 * ConfigMap projected into their config folder as the kubelet does it, Prometheus scraping them with
 * the shipped rules, its queries asked as the guide asks them). `kubectl` is a stand-in on PATH that
 * acts on those replicas (`create configmap --dry-run=client` is the real kubectl's when one is
 * installed): what it proves is what the gateway does with the files and signals Kubernetes gives it,
 * not what a cluster does. Between the steps the team's clients (here, the test) create, read, pay,
 * read and refund orders through each side; at the end every order was created, paid and refunded
 * exactly once across all the steps, rollback included.
 */
import { exec, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { configMapVolume } from '../helpers/configmap.js';
import { spawnGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';
import { BIN, type Spawned } from '../helpers/spawn.js';

/** A Prometheus instant query's answer, as far as the test reads it. */
type PromQuery = { data: { result: { metric: Record<string, string>; value: [number, string] }[] } };

const sh = promisify(exec);
const ROOT = new URL('../../', import.meta.url).pathname;
const GUIDE = readFileSync(join(ROOT, 'docs/migration.md'), 'utf8');
const DEPLOY = join(ROOT, 'deploy/kubernetes');
const OPERATOR = OPERATOR_TOKENS.migration;

/** Prometheus's server, from Debian's prometheus package (`.ci/run` installs it); required under CI=true. */
function findPrometheus(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    if (existsSync(join(dir, 'prometheus'))) return join(dir, 'prometheus');
  if (process.env.CI === 'true')
    throw new Error('prometheus not found (CI=true requires it): apt-get install prometheus');
  process.stderr.write("migration guide: its Kubernetes part skipped: install Debian's prometheus package to run it\n");
  return undefined;
}
const PROMETHEUS = findPrometheus();

/** The command lines the guide gives (indented code), by the program they run. */
const COMMAND = /^ {4}(npx paybridge |curl |kubectl |PAYBRIDGE_[A-Z_]+=)/;

interface Step {
  title: string;
  /** The step's paybridge.json, when it has one. */
  file?: { routes: Record<string, string> } & Record<string, unknown>;
  commands: string[];
}

/** The guide's sections (## headings), each with its paybridge.json and its commands in order. */
function guideSteps(): Step[] {
  return GUIDE.split(/^## /m)
    .slice(1)
    .map((section) => {
      const title = section.slice(0, section.indexOf('\n'));
      const json = [...section.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!));
      expect(json.length, title).toBeLessThanOrEqual(1);
      const commands = section
        .split('\n')
        .filter((line) => COMMAND.test(line))
        .map((line) => line.trim());
      return { title, ...(json[0] ? { file: json[0] } : {}), commands };
    });
}

/** Traffic of the team's clients per step: order flows on each side (enough for 50 comparisons where a verdict is the go). */
const FLOWS: Record<string, number> = {
  'Step 0': 4,
  'Step 1': 56,
  'Step 2': 10,
  'Step 3': 10,
  'Step 4': 10,
  'Step 5': 6,
  'Rolling back': 6,
};

/** A free TCP port on the loopback. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The stand-in kubectl: `create ... --dry-run=client` by the real one when installed, the rest handed to the test's cluster. */
const KUBECTL = `#!${process.execPath}
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { delimiter, join } = require('node:path');
const argv = process.argv.slice(2);
if (argv[0] === 'create' && argv.includes('--dry-run=client') && !process.env.KUBECTL_STANDIN_ONLY) {
  const real = (process.env.PATH || '').split(delimiter).filter((d) => d !== __dirname).map((d) => join(d, 'kubectl')).find((f) => existsSync(f));
  if (real) process.exit(spawnSync(real, argv, { stdio: 'inherit' }).status);
}
const stdin = argv.includes('-') ? readFileSync(0, 'utf8') : '';
fetch(process.env.KUBECTL_STANDIN_URL, { method: 'POST', body: JSON.stringify({ argv, stdin, cwd: process.cwd() }) })
  .then((res) => res.json())
  .then(({ stdout, code }) => { process.stdout.write(stdout); process.exit(code); });
`;

interface Replica {
  proc: Spawned & { url: string };
  dir: string;
}

/** Two replicas of deploy/kubernetes on this machine, Prometheus scraping them, driven by the stand-in kubectl. */
function cluster(secrets: Record<string, string>) {
  const docs = ['deployment.yaml', 'configmap.yaml'].map((f) => parse(readFileSync(join(DEPLOY, f), 'utf8')));
  const deployment = docs[0];
  const container = deployment.spec.template.spec.containers[0];
  const root = mkdtempSync(join(tmpdir(), 'paybridge-cluster-'));
  const volume = join(root, 'config');
  mkdirSync(volume);
  const project = configMapVolume(volume);
  const replicas: Replica[] = [];
  let prometheus: { child: ChildProcess; url: string; targets: string } | undefined;

  /** One pod: the Deployment's command line, its variables and the Secret's, paths mapped to this machine. */
  async function startReplica(i: number): Promise<Replica> {
    const dir = join(root, `pod-${i}`);
    mkdirSync(dir, { recursive: true });
    const args = (container.args as string[]).slice(1).map((a) => a.replace('/app/config/', `${volume}/`));
    const env: Record<string, string> = { ...secrets };
    for (const { name, value } of container.env as { name: string; value: string }[]) env[name] = value;
    // here: loopback and a free port, and no drain on SIGTERM (the pod's 5 s drain waits for endpoints a Service updates)
    env.PAYBRIDGE_DRAIN_MS = '0';
    const proc = await spawnGateway([...args, '--host', '127.0.0.1'], env, { cwd: dir, timeoutMs: 30_000 });
    return { proc, dir };
  }

  function writeTargets(): void {
    if (!prometheus) return;
    writeFileSync(
      `${prometheus.targets}.tmp`,
      JSON.stringify([{ targets: replicas.map((r) => new URL(r.proc.url).host), labels: { job: 'paybridge' } }]),
    );
    renameSync(`${prometheus.targets}.tmp`, prometheus.targets);
  }

  async function startPrometheus(): Promise<void> {
    if (!PROMETHEUS) return;
    const port = await freePort();
    const targets = join(root, 'targets.json');
    const config = join(root, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(join(ROOT, 'deploy/prometheus/paybridge-rules.yml'))}]`,
        'scrape_configs:',
        '  - job_name: paybridge',
        `    file_sd_configs: [{ files: [${JSON.stringify(targets)}], refresh_interval: 1s }]`,
      ].join('\n'),
    );
    const child = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(root, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    prometheus = { child, url: `http://127.0.0.1:${port}`, targets };
    writeTargets();
    await waitUntil(
      async () =>
        (await fetch(`${prometheus!.url}/-/ready`).then(
          (r) => r.status,
          () => 0,
        )) === 200,
      30_000,
    );
  }

  const ready = async () => {
    for (const r of replicas)
      await waitUntil(async () => (await client(r.proc.url).get('/readyz')).status === 200, 30_000);
  };

  /** What kubectl asks of the cluster (and, with no kubectl installed, what it prints for a client-side dry run). */
  async function kubectl(argv: string[], stdin: string, cwd: string): Promise<{ stdout: string; code: number }> {
    const line = argv.join(' ');
    const dryRun = /^create configmap (\S+) --from-file=(\S+) --dry-run=client -o yaml$/.exec(line);
    if (dryRun) {
      const data = { [basename(dryRun[2]!)]: readFileSync(join(cwd, dryRun[2]!), 'utf8') };
      return {
        stdout: stringify({
          apiVersion: 'v1',
          data,
          kind: 'ConfigMap',
          metadata: { creationTimestamp: null, name: dryRun[1] },
        }),
        code: 0,
      };
    }
    if (line === 'apply -f deploy/kubernetes/') {
      // the ConfigMap first: the pods mount it
      project(docs[1].data);
      // two pods of the Deployment (it asks for three: two show the same on this machine for less)
      for (let i = 0; i < 2; i++) replicas.push(await startReplica(i));
      await startPrometheus();
      return { stdout: 'configmap/paybridge-config created\ndeployment.apps/paybridge created\n', code: 0 };
    }
    if (line === 'apply -f -') {
      const doc = parse(stdin);
      new ConfigMap(doc).validate();
      expect(doc.metadata.name).toBe(docs[1].metadata.name);
      project(doc.data);
      return { stdout: 'configmap/paybridge-config configured\n', code: 0 };
    }
    if (argv[0] === 'annotate' && argv[1] === 'pods') {
      // the label selector is the Deployment's pods'; the kubelet here projects at once
      const selector = argv[argv.indexOf('-l') + 1]!;
      const [key, value] = selector.split('=');
      expect(deployment.spec.template.metadata.labels[key!]).toBe(value);
      expect(argv).toContain('--overwrite');
      return { stdout: replicas.map((_, i) => `pod/paybridge-${i} annotated\n`).join(''), code: 0 };
    }
    if (line === `rollout status deployment/${deployment.metadata.name}`) {
      await ready();
      return { stdout: `deployment "${deployment.metadata.name}" successfully rolled out\n`, code: 0 };
    }
    if (line === `rollout restart deployment/${deployment.metadata.name}`) {
      // one pod at a time, as the Deployment's rolling update does
      for (let i = 0; i < replicas.length; i++) {
        expect(await replicas[i]!.proc.stop()).toBe(0);
        replicas[i] = await startReplica(i);
        writeTargets();
      }
      return { stdout: `deployment.apps/${deployment.metadata.name} restarted\n`, code: 0 };
    }
    return { stdout: `kubectl stand-in: ${line}: not a command of the guide\n`, code: 1 };
  }

  const control: Server = createHttpServer((req, res) => {
    let body = '';
    req
      .on('data', (d) => (body += d))
      .on('end', () => {
        const { argv, stdin, cwd } = JSON.parse(body) as { argv: string[]; stdin: string; cwd: string };
        kubectl(argv, stdin, cwd).then(
          (answer) => res.end(JSON.stringify(answer)),
          (err: Error) => res.end(JSON.stringify({ stdout: `kubectl stand-in failed: ${err.message}\n`, code: 1 })),
        );
      });
  });
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'kubectl'), KUBECTL);
  chmodSync(join(bin, 'kubectl'), 0o755);

  return {
    replicas,
    prometheusUrl: () => prometheus?.url,
    async listen(): Promise<Record<string, string>> {
      await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
      return {
        PATH: `${bin}${delimiter}${process.env.PATH}`,
        KUBECTL_STANDIN_URL: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
      };
    },
    async close(): Promise<void> {
      for (const r of replicas) await r.proc.stop();
      prometheus?.child.kill('SIGTERM');
      await new Promise((r) => control.close(r));
    },
  };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The routes a step's file sets besides `*`, and the percent of a canary:N% route. */
const canaries = (file: Step['file']) =>
  Object.entries(file?.routes ?? {}).flatMap(([route, mode]) =>
    /^canary:(\d+)%$/.test(mode) ? [[route, Number(mode.slice(7, -1))] as const] : [],
  );
const FLOW_ROUTES = ['L1', 'L3', 'L4', 'L6', 'L7'];

describe('docs/migration.md', () => {
  let sb: TestSandbox;
  let host: (Spawned & { url: string }) | undefined;
  let k8s: ReturnType<typeof cluster> | undefined;
  afterAll(async () => {
    await host?.stop();
    await k8s?.close();
    await sb?.close();
  });

  it('every command, step by step, on one host and on two replicas: each step applied everywhere, its go criteria met, nothing done twice', async () => {
    const steps = guideSteps();
    // every indented line of the guide (outside its JSON files) is a command this test runs
    const indented = GUIDE.replace(/^```[\s\S]*?^```$/gm, '')
      .split('\n')
      .filter((l) => /^ {4}\S/.test(l));
    expect(indented.filter((l) => !COMMAND.test(l))).toEqual([]);
    // step 0's file is the ConfigMap deploy/kubernetes ships
    const shipped = parse(readFileSync(join(DEPLOY, 'configmap.yaml'), 'utf8')) as { data: Record<string, string> };
    expect(steps[2]!.title).toMatch(/^Step 0/);
    expect(steps[2]!.file).toEqual(JSON.parse(shipped.data['paybridge.json']!));

    sb = await startSandbox();
    const secrets = {
      PAYBRIDGE_CURRENT_URL: sb.currentUrl,
      PAYBRIDGE_LEGACY_URL: sb.legacyUrl,
      PAYBRIDGE_OPERATOR_TOKEN: OPERATOR,
    };
    const hostDir = mkdtempSync(join(tmpdir(), 'paybridge-host-'));
    k8s = PROMETHEUS ? cluster(secrets) : undefined;
    const env = { ...process.env, ...(k8s ? await k8s.listen() : {}) };
    const before = { ...sb.sandbox.store.stats };
    const done = { orders: 0, pays: 0, refunds: 0 };

    /** One command as the guide gives it: `npx paybridge` as the built bin, the addresses the ones of this run. */
    const run = async (command: string): Promise<{ stdout: string; code: number }> => {
      const local = command
        .replace(/\bnpx paybridge\b/g, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`)
        .replaceAll('http://127.0.0.1:8080', host?.url ?? 'http://127.0.0.1:8080')
        .replaceAll('http://prometheus:9090', k8s?.prometheusUrl() ?? 'http://prometheus:9090');
      return sh(local, { cwd: command.startsWith('kubectl apply -f deploy') ? ROOT : hostDir, env }).then(
        ({ stdout }) => ({ stdout, code: 0 }),
        (err: { stdout: string; code: number }) => ({ stdout: err.stdout, code: err.code }),
      );
    };
    const operator = (url: string) => client(url, { authorization: `Bearer ${OPERATOR}` });

    /**
     * The team's clients: `n` orders created, paid and part refunded, then the order and its transaction
     * read, through `bases` in turn. The reads come last: a read compared after the client's next write
     * to the same resource landed differs in its status and amounts, which the verdict counts as a
     * mismatch (a read's comparison is not told raced as a write's is).
     */
    const flows = async (bases: string[], n: number, tag: string) => {
      const card = client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` });
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = next++; i < n; i = next++) {
            const api = client(bases[i % bases.length]!, { 'Limepay-SecretKey': KEYS.soloSk });
            const order = await api.post('/orders', legacyOrder({ internalOrderId: `${tag}-${i}` }));
            expect(order.status, order.text).toBe(200);
            done.orders++;
            const id = order.body.merchantOrderId as string;
            const token = (await card.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId;
            const paid = await api.post(`/orders/${id}/pay`, { paymentToken: token });
            expect(paid.status, paid.text).toBe(200);
            done.pays++;
            expect(
              (
                await api.post('/refunds', {
                  transactionId: paid.body.transactionId,
                  refundAmount: { amount: 1_000, currency: 'AUD' },
                })
              ).status,
            ).toBe(200);
            done.refunds++;
            expect((await api.get(`/orders/${id}`)).status).toBe(200);
            expect((await api.get(`/transactions/${paid.body.transactionId}`)).status).toBe(200);
          }
        }),
      );
    };

    /** What each command must show at this step (a command with no check must exit 0); some wait, as an operator does, for the next scrape. */
    const expectations = (
      step: Step,
    ): [RegExp, (out: { stdout: string; code: number }) => Promise<void> | void, boolean][] => [
      [/\/readyz$/, (out) => expect(JSON.parse(out.stdout)).toEqual({ status: 'ready' }), false],
      [
        /^npx paybridge routes --gateway/,
        (out) => {
          for (const [route, mode] of Object.entries(step.file?.routes ?? {}).filter(([r]) => r !== '*'))
            expect(out.stdout).toMatch(new RegExp(`^${route}\\s.*\\s${mode.replace('%', '%')}\\s+sample`, 'm'));
          expect(out.stdout).toMatch(new RegExp(`set by the configuration file `));
        },
        false,
      ],
      [
        /--fail-on not-ready$/,
        (out) => {
          expect(out.code, out.stdout).toBe(0);
          for (const route of FLOW_ROUTES) expect(out.stdout).toMatch(new RegExp(`^${route}\\s+READY\\s`, 'm'));
        },
        true,
      ],
      [
        /--fail-on mismatch$/,
        (out) => {
          expect(out.code, out.stdout).toBe(0);
          for (const [route, percent] of canaries(step.file))
            expect(out.stdout).toMatch(
              new RegExp(
                `^${route}\\s[\\s\\S]*?canary ${percent}% configured: [\\d.]+% served by the translation`,
                'm',
              ),
            );
        },
        true,
      ],
      [
        /_paybridge\/report -H/,
        (out) => {
          const report = JSON.parse(out.stdout) as {
            routes: { route: string; canary?: { percent: number; translation: number; legacy: number } }[];
          };
          for (const [route, percent] of canaries(step.file)) {
            const r = report.routes.find((x) => x.route === route)!;
            expect(r.canary?.percent, route).toBe(percent);
            expect(r.canary!.translation + r.canary!.legacy, route).toBeGreaterThanOrEqual(
              FLOWS[step.title.slice(0, 6)] ?? 0,
            );
          }
        },
        false,
      ],
      [
        /_paybridge\/config -H/,
        (out) => {
          const shown = JSON.parse(out.stdout) as {
            config: { routes: unknown };
            notApplied: string[];
            routesSetBy: string;
          };
          expect(shown.config.routes).toEqual(step.file!.routes);
          expect(shown.notApplied).toEqual([]);
          expect(shown.routesSetBy).toBe(`the configuration file paybridge.json`);
        },
        false,
      ],
      [
        /query=count by \(hash\)/,
        (out) => {
          const result = (JSON.parse(out.stdout) as PromQuery).data.result;
          expect(result.map((r) => r.value[1])).toEqual(['2']);
        },
        true,
      ],
      [
        /query=paybridge:shadow_route_ready/,
        (out) => {
          const result = (JSON.parse(out.stdout) as PromQuery).data.result;
          for (const route of FLOW_ROUTES)
            expect(result.find((r) => r.metric.route === route)?.value[1], route).toBe('1');
        },
        true,
      ],
      [
        /query=paybridge:canary_translation_share/,
        (out) => {
          const result = (JSON.parse(out.stdout) as PromQuery).data.result;
          for (const [route] of canaries(step.file))
            expect(Number(result.find((r) => r.metric.route === route)?.value[1]), route).toBeGreaterThanOrEqual(0);
        },
        true,
      ],
      [
        /^npx paybridge replay corpus\.jsonl$/,
        (out) => {
          expect(out.code, out.stdout).toBe(0);
          expect(out.stdout).toMatch(/^replay: [1-9]\d* exchanges, 0 would change$/m);
        },
        false,
      ],
    ];

    for (const step of steps.filter((s) => s.file || s.commands.length > 0)) {
      // the step's file: saved on the host (the gateway reads it), the ConfigMap's source for kubectl
      if (step.file) writeFileSync(join(hostDir, 'paybridge.json'), JSON.stringify(step.file, null, 2));
      const routesIn = async (url: string) => (await operator(url).get('/_paybridge/config')).body?.config?.routes;
      if (host && step.file)
        await waitUntil(
          async () => JSON.stringify(await routesIn(host!.url)) === JSON.stringify(step.file!.routes),
          15_000,
        );
      // what applies the step first (the gateway started, kubectl), then the clients' traffic, then the checks
      const applying = step.commands.filter((c) => /^(PAYBRIDGE_|kubectl )/.test(c));
      for (const command of applying) {
        if (command.startsWith('PAYBRIDGE_')) {
          const assignments = command
            .slice(0, command.indexOf(' npx paybridge serve '))
            .split(' ')
            .map((a) => a.split('=') as [string, string]);
          const args = command
            .slice(command.indexOf(' npx paybridge serve ') + ' npx paybridge serve '.length)
            .split(' ');
          host = await spawnGateway(
            args,
            {
              ...Object.fromEntries(assignments),
              PAYBRIDGE_CURRENT_URL: sb.currentUrl,
              PAYBRIDGE_LEGACY_URL: sb.legacyUrl,
            },
            { cwd: hostDir, timeoutMs: 30_000 },
          );
          continue;
        }
        if (!k8s) continue;
        const out = await run(command);
        expect(out.code, `${command}: ${out.stdout}`).toBe(0);
      }
      if (k8s && step.file)
        for (const r of k8s.replicas)
          await waitUntil(
            async () => JSON.stringify(await routesIn(r.proc.url)) === JSON.stringify(step.file!.routes),
            15_000,
          );
      const n = FLOWS[step.title.slice(0, step.title.startsWith('Step') ? 6 : 12)] ?? 0;
      await flows([host!.url], n, `host-${step.title.slice(0, 6)}`);
      if (k8s)
        await flows(
          k8s.replicas.map((r) => r.proc.url),
          n,
          `k8s-${step.title.slice(0, 6)}`,
        );
      for (const command of step.commands.filter((c) => !applying.includes(c))) {
        if (!k8s && command.includes('prometheus:9090')) continue;
        const check = expectations(step).find(([pattern]) => pattern.test(command));
        if (!check?.[2]) {
          const out = await run(command);
          expect(out.code, `${command}: ${out.stdout}`).toBe(0);
          await check?.[1](out);
          continue;
        }
        // a verdict or a scrape still on its way: asked again, as an operator would, for a while
        let last: unknown;
        await waitUntil(async () => {
          try {
            await check[1](await run(command));
            return true;
          } catch (err) {
            last = err;
            return false;
          }
        }, 45_000).catch(() => {
          throw last;
        });
      }
    }

    // every order created, paid and refunded exactly once, through every step, rollback included
    const stats = sb.sandbox.store.stats;
    expect(stats.ordersCreated - before.ordersCreated).toBe(done.orders);
    expect(stats.transactionsCreated - before.transactionsCreated).toBe(done.pays);
    expect(stats.refundsCreated - before.refundsCreated).toBe(done.refunds);
    expect(done.orders).toBeGreaterThan(100);
  }, 600_000);
});
