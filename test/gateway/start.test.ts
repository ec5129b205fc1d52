import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';
import { BIN } from '../helpers/spawn.js';
import { script } from '../helpers/tools.js';

const terminal = script();

const sh = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start: the gateway with the embedded sandbox', () => {
  it('starts with no upstream configured and prints a curl command that works as printed', async () => {
    const gw = await spawnGateway([]);
    try {
      const [, curl] = await new Promise<RegExpMatchArray>((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const poll = () => {
          const m = gw.stderr().match(/^\s+(curl .+)$/m);
          if (m) resolve(m);
          else if (Date.now() > deadline) reject(new Error(`no curl line in: ${gw.stderr()}`));
          else setTimeout(poll, 50);
        };
        poll();
      });
      expect(gw.stderr()).toContain('the embedded sandbox');
      const { stdout } = await sh('sh', ['-c', curl!]);
      expect(JSON.parse(stdout)).toMatchObject({
        internalOrderId: 'demo-1',
        amount: 1000,
        currency: 'AUD',
        status: 'created',
        merchantId: 'mcht_solo',
      });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it("runs package.json's start command as written, its port and host taken from PAYBRIDGE_PORT and PAYBRIDGE_HOST like every setting", async () => {
    const start = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: { start: string } }).scripts
      .start;
    // the script as npm runs it (sh -c), without npm in between: the next test has npm
    const child = spawn('sh', ['-c', start], {
      cwd: ROOT,
      env: { ...process.env, PAYBRIDGE_PORT: '0', PAYBRIDGE_HOST: '127.0.0.1' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const poll = () => {
          const m = /paybridge gateway listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stderr);
          if (m) resolve(m[1]!);
          else if (child.exitCode !== null || Date.now() > deadline)
            reject(new Error(`\`${start}\` did not start: ${stderr}`));
          else setTimeout(poll, 50);
        };
        poll();
      });
      expect(new URL(url).port).not.toBe('8080');
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  /** README's `npm start` (PATH's npm), on a free port: the gateway's address, its stderr, and when it has exited. */
  async function npmStart() {
    // its own process group, so that whatever a failed test leaves behind is ended with it
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, PAYBRIDGE_PORT: '0', PAYBRIDGE_HOST: '127.0.0.1' },
    });
    let stderr = '';
    npm.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    npm.stdout.resume();
    // the gateway writes to the pipes npm handed it: they close when the gateway has exited, not npm
    const closed = new Promise<boolean>((resolve) => npm.once('close', () => resolve(true)));
    const gatewayGone = async () => {
      const gone = await Promise.race([closed, new Promise<boolean>((resolve) => setTimeout(resolve, 10_000, false))]);
      if (!gone) process.kill(-npm.pid!, 'SIGKILL');
      return gone;
    };
    const npmExited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    const url = await vi.waitFor(
      () => {
        const m = /paybridge gateway listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (!m) throw new Error(`npm start did not start the gateway: ${stderr}`);
        return m[1]!;
      },
      { timeout: 20_000, interval: 100 },
    );
    return { npm, url, stderr: () => stderr, gatewayGone, npmExited };
  }

  it('`npm start` itself runs the gateway on the Node that runs npm, and a SIGTERM to npm stops it (the script execs node: no shell in between to swallow it)', async () => {
    const { npm, url, stderr, gatewayGone, npmExited } = await npmStart();
    // the `node` npm's script found on PATH is the one running this test (CI runs npm test under Node 22, then 26)
    expect(await (await fetch(`${url}/metrics`)).text()).toContain(`nodejs_version_info{version="${process.version}"`);
    npm.kill('SIGTERM');
    expect(await gatewayGone(), 'the gateway still runs 10 s after npm was signalled').toBe(true);
    expect(stderr()).toMatch(/^paybridge gateway stopped after \d+ ms$/m);
    expect(await npmExited).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 40_000);

  it('`npm start` killed outright (SIGKILL, nothing forwarded): the gateway sees its parent gone and stops as on SIGTERM', async () => {
    const { npm, url, stderr, gatewayGone } = await npmStart();
    npm.kill('SIGKILL');
    expect(await gatewayGone(), 'the gateway still runs 10 s after npm was killed').toBe(true);
    expect(stderr()).toMatch(/the parent process \d+ \(npm start\) is gone: stopping as on SIGTERM/);
    expect(stderr()).toMatch(/^paybridge gateway stopped after \d+ ms$/m);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 40_000);
});

describe('what a person sees on a terminal, and what a collector reads', () => {
  it('logs JSON lines off a terminal: one start line, and one line when stopped', async () => {
    const gw = await spawnGateway([]);
    await fetch(`${gw.url}/healthz`);
    expect(await gw.stop()).toBe(0);
    const lines = gw
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.filter((l) => /listening/.test(l.msg)).map((l) => l.msg)).toEqual(['paybridge gateway listening']);
    expect(gw.stderr().match(/listening/g)).toHaveLength(1);
    expect(gw.stderr()).toMatch(/npx pino-pretty/);
    expect(gw.stderr()).toMatch(/^paybridge gateway stopped after \d+ ms$/m);
  });

  it.skipIf(terminal.skip)(
    'logs lines a person reads on a terminal, one start line, a legacy request on one line',
    async () => {
      const child = spawn(terminal.path(), ['-qfec', `${process.execPath} ${BIN} serve --port 0`, '/dev/null'], {
        stdio: 'pipe',
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      try {
        const url = await vi.waitFor(
          () => {
            const m = /paybridge gateway listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (!m) throw new Error(out);
            return m[1]!;
          },
          { timeout: 25_000 },
        );
        await fetch(`${url}/orders/ordr_tty1`, { headers: { 'Limepay-SecretKey': 'sandbox_sk_solo_secret_key' } });
        await vi.waitFor(() => expect(out).toMatch(/INFO.*request.*"url":"\/orders\/ordr_tty1","status":404/), {
          timeout: 25_000,
        });
        expect(out.match(/listening/g)).toHaveLength(1);
        expect(out).not.toMatch(/^\{"level"/m);
        expect(out).not.toContain('sandbox_sk_solo_secret_key"');
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  );
});
