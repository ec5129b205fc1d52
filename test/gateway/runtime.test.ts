/**
 * The Node paybridge claims, CI runs and the image ships, and the image's own files, checked without a
 * Docker engine: package.json's engines floor is the highest floor the runtime dependencies declare
 * (the lock file's), .ci/run runs the suite on that line and on the image's; every FROM is pinned by
 * digest; the build context (.dockerignore) is what the build copies and nothing else; the
 * HEALTHCHECK's own command, run here under the image's variables and a Kubernetes service link, finds
 * the gateway where serve listens.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempJson } from '../helpers/gateway.js';
import { spawnBin } from '../helpers/spawn.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: { test: string } };
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }>;
};
const CI = read('.ci/run');
const ciMajor = (name: string) => Number(new RegExp(`^${name}=(\\d+)$`, 'm').exec(CI)![1]);

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const INSTRUCTIONS = read('Dockerfile')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

type Version = [number, number, number];
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The lowest version of Node `major` a package's engines range admits, or undefined if none. Reads the
 * forms the lock file holds (`>=X.Y.Z`, `>= X`, `>=X.x`, `^X`, `X`, `*`, joined by `||`); another form
 * fails the test, naming it, rather than being guessed at.
 */
function lowestOnLine(range: string, major: number): Version | undefined {
  const lowest: Version[] = [];
  for (const alternative of range.split('||').map((a) => a.trim())) {
    if (alternative === '*' || alternative === '') return [major, 0, 0];
    const m = /^(>=|\^)?\s*(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?$/.exec(alternative);
    if (!m) throw new Error(`an engines range this test cannot read: ${JSON.stringify(range)}`);
    const floor: Version = [
      Number(m[2]),
      m[3] === undefined || m[3] === 'x' ? 0 : Number(m[3]),
      m[4] === undefined || m[4] === 'x' ? 0 : Number(m[4]),
    ];
    // >= admits every later major; ^ and a bare major only its own
    if (m[1] === '>=' ? floor[0] < major : floor[0] !== major) {
      if (m[1] === '>=') lowest.push([major, 0, 0]);
      continue;
    }
    if (floor[0] === major) lowest.push(floor);
  }
  return lowest.sort(cmp)[0];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the Node paybridge runs on', () => {
  const floor = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node);

  it('engines states the highest floor the runtime dependencies declare, on the line CI runs first', () => {
    expect(floor, `engines.node: ${pkg.engines.node}`).not.toBeNull();
    const major = Number(floor![1]);
    expect(ciMajor('FLOOR')).toBe(major);
    const needs = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.dev && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .map(([path, p]) => ({
        name: path.replace(/^.*node_modules\//, ''),
        lowest: lowestOnLine((p.engines as { node: string }).node, major),
      }));
    const unsupported = needs.filter((n) => n.lowest === undefined).map((n) => n.name);
    expect(unsupported, `runtime dependencies that do not run on Node ${major} at all`).toEqual([]);
    const highest = needs
      .map((n) => n.lowest!)
      .sort(cmp)
      .at(-1)!;
    expect(
      `>=${highest.join('.')}`,
      `the runtime dependencies that need it: ${needs
        .filter((n) => cmp(n.lowest!, highest) === 0)
        .map((n) => n.name)
        .join(', ')}`,
    ).toBe(pkg.engines.node);
    // README's Requirements says the same
    expect(
      read('README.md').includes(`Node ${floor![1]}.${floor![2]} or later`),
      `README: Node ${floor![1]}.${floor![2]} or later`,
    ).toBe(true);
  });

  it('CI runs `npm test` on the floor and on the active LTS, the one the image ships, on Node from the registry', () => {
    expect(CI).toMatch(/^on\(\) \{ npx -y -p "node@\$1" "\$\{@:2\}"; \}$/m);
    expect(CI).toMatch(/^for node in "\$FLOOR" "\$LTS"; do$/m);
    expect(CI).toMatch(/^ {2}on "\$node" npm test$/m);
    // each pass starts from an empty .test-logs/, so its secrets scan reads only the logs that pass wrote
    expect(pkg.scripts.test).toMatch(
      /^node test\/clear-logs\.mjs && vitest run --project suite && vitest run --project secrets$/,
    );
    const froms = INSTRUCTIONS.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms)
      expect(from).toMatch(
        new RegExp(`^FROM node:${ciMajor('LTS')}\\.\\d+\\.\\d+-trixie-slim@sha256:[0-9a-f]{64}( AS \\w+)?$`),
      );
    expect(new Set(froms.map((f) => f.split(' ')[1])).size, 'every stage on the same pinned base').toBe(1);
  });
});

describe('the Docker image', () => {
  /** Whether Docker sends a path of the context: the last pattern of .dockerignore that matches it or a parent decides. */
  function inContext(path: string): boolean {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    let included = true;
    for (const pattern of patterns) {
      const exception = pattern.startsWith('!');
      const glob = exception ? pattern.slice(1) : pattern;
      if (!/^[\w.*/-]+$/.test(glob) || glob.includes('**'))
        throw new Error(`a .dockerignore pattern this test cannot read: ${pattern}`);
      const re = new RegExp(`^${glob.replace(/\/+$/, '').replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
      const parts = path.split('/');
      if (parts.some((_, i) => re.test(parts.slice(0, i + 1).join('/')))) included = exception;
    }
    return included;
  }

  it('sends as build context exactly the files the build stage copies (.dockerignore)', () => {
    const copied = INSTRUCTIONS.filter((l) => l.startsWith('COPY ') && !l.includes('--from=')).flatMap((l) =>
      l.split(/\s+/).slice(1, -1),
    );
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src', 'mappings']));
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    const needed = (file: string) => copied.some((c) => file === c || file.startsWith(`${c}/`));
    expect(
      tracked.filter((f) => needed(f) && !inContext(f)),
      'copied by the build, left out of the context',
    ).toEqual([]);
    expect(
      tracked.filter((f) => !needed(f) && inContext(f)),
      'in the context, never copied',
    ).toEqual([]);
    // and what a working copy holds besides its tracked files
    for (const local of [
      'node_modules/zod/package.json',
      'dist/src/cli.js',
      '.git/HEAD',
      '.test-logs/gateway.log',
      'reports/mutation/mutation.json',
      'coverage/index.html',
    ])
      expect(inContext(local), local).toBe(false);
  });

  /** The HEALTHCHECK's command (exec form) run as the image runs it: from /app (here the checkout, same layout), with the image's variables and `env`. */
  function healthcheck(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number | null; stderr: string }> {
    const line = INSTRUCTIONS.find((l) => l.startsWith('HEALTHCHECK '))!;
    const command = JSON.parse(/ CMD (\[.*\])$/.exec(line)![1]!) as string[];
    expect(command.slice(0, 2)).toEqual(['node', 'dist/src/healthcheck.js']);
    const imageEnv = Object.fromEntries(
      INSTRUCTIONS.filter((l) => l.startsWith('ENV ')).flatMap((l) =>
        l
          .slice(4)
          .split(/\s+/)
          .map((kv) => kv.split('=') as [string, string]),
      ),
    );
    const child = spawn(process.execPath, [...command.slice(1), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...imageEnv, ...env },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  }

  it('HEALTHCHECK finds the gateway where serve listens, a Kubernetes service link PAYBRIDGE_PORT=tcp://... ignored by both', async () => {
    const port = await freePort();
    // kubelet's service links for a Service named `paybridge`, and the port from the configuration file
    const env = {
      PAYBRIDGE_PORT: `tcp://10.96.0.12:${port + 1}`,
      PAYBRIDGE_SERVICE_HOST: '10.96.0.12',
      PAYBRIDGE_CONFIG: tempJson('paybridge.json', { listen: { port } }),
    };
    const gateway = spawnBin(['serve'], { PAYBRIDGE_HOST: '0.0.0.0', ...env });
    try {
      await gateway.waitFor(
        new RegExp(`^paybridge gateway listening on http://127\\.0\\.0\\.1:${port}$`, 'm'),
        15_000,
        'stderr',
      );
      expect(await healthcheck(env)).toEqual({ code: 0, stderr: '' });
      // the image's own PAYBRIDGE_PORT, and a flag, as serve takes them
      expect((await healthcheck({ PAYBRIDGE_PORT: String(port) })).code).toBe(0);
      expect((await healthcheck({}, ['--port', String(port)])).code).toBe(0);
      // a port the gateway is not on: unhealthy, saying where it asked
      const elsewhere = await healthcheck({ PAYBRIDGE_PORT: String(port + 1) });
      expect(elsewhere.code).toBe(1);
      expect(elsewhere.stderr).toContain(`http://127.0.0.1:${port + 1}/healthz`);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
    expect(await healthcheck(env)).toMatchObject({ code: 1, stderr: expect.stringContaining('ECONNREFUSED') });
    // a setting serve would refuse is refused here too, named
    expect(await healthcheck({ PAYBRIDGE_PORT: 'eighty' })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('PAYBRIDGE_PORT: expected a non-negative integer'),
    });
  }, 40_000);
});
