import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';

const sh = promisify(execFile);

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
      expect(JSON.parse(stdout)).toMatchObject({ internalOrderId: 'demo-1', amount: 1000, currency: 'AUD', status: 'created', merchantId: 'mcht_solo' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it("runs package.json's start command as written, its port and host taken from PAYBRIDGE_PORT and PAYBRIDGE_HOST like every setting", async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start;
    // README's `npm start`, without npm in between (its signal handling is npm's, not the gateway's)
    const child = spawn('sh', ['-c', `exec ${start}`], { cwd: root, env: { ...process.env, PAYBRIDGE_PORT: '0', PAYBRIDGE_HOST: '127.0.0.1' } });
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
          else if (child.exitCode !== null || Date.now() > deadline) reject(new Error(`\`${start}\` did not start: ${stderr}`));
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
});
