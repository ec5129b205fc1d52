/** The paybridge program: per-command help with descriptions and defaults, --version, and what was wrong with a bad command or flag (exit 2). */
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { OPENAPI_USAGE } from '../../src/cli/openapi.js';
import { REPLAY_USAGE } from '../../src/cli/replay.js';
import { REPORT_USAGE } from '../../src/cli/report.js';
import { RULES_USAGE } from '../../src/cli/rules.js';
import { SANDBOX_USAGE } from '../../src/cli/sandbox.js';
import { SERVE_USAGE } from '../../src/cli/serve.js';
import { ROUTES_USAGE, TRANSLATE_USAGE } from '../../src/cli/translate.js';
import { ROUTE_STATES } from '../../src/shadow/verdict.js';
import { tempJson } from '../helpers/gateway.js';
import { BIN, spawnBin } from '../helpers/spawn.js';
import { script } from '../helpers/tools.js';

const terminal = script();
const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

async function bin(args: string[]) {
  const p = spawnBin(args);
  return { code: await p.exited, stdout: p.stdout(), stderr: p.stderr() };
}

describe('the paybridge program', () => {
  it('prints its version and its commands', async () => {
    expect(await bin(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = await bin(['help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'sandbox', 'translate', 'routes', 'report', 'openapi'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\s+\\S`, 'm'));
    expect(help.stdout).toContain('Exit codes: 0 done, 1 the command failed, 2 a usage error');
  });

  it('describes every serve flag with its default and variable', async () => {
    const help = await bin(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /--port N\s+port to listen on \(0: any free one\) \(default: 8080; PAYBRIDGE_PORT; file: listen\.port\)/,
    );
    // --config names the file's keys where a user can read them, not a source file the package does not ship
    expect(help.stdout).not.toContain('src/config.ts');
    expect(help.stdout).toMatch(/--config FILE\s+a JSON config file: the settings below by their file names/);
    expect(help.stdout).toMatch(/--mode ROUTE=MODE\s+ROUTE=MODE, repeatable/);
    expect((await bin(['help', 'report'])).stdout).toContain('--find ID');
  });

  it("each command's help says each thing once, and report's names every verdict a route can have", async () => {
    const usages = {
      OPENAPI_USAGE,
      REPLAY_USAGE,
      REPORT_USAGE,
      RULES_USAGE,
      SANDBOX_USAGE,
      SERVE_USAGE,
      ROUTES_USAGE,
      TRANSLATE_USAGE,
    };
    for (const [name, text] of Object.entries(usages))
      // a run of three or more words said twice over ("the legacy routes the legacy routes")
      expect(/\b([a-z]+(?:\s+[a-z]+){2,})\s+\1\b/i.exec(text)?.[0], name).toBeUndefined();
    const report = (await bin(['help', 'report'])).stdout;
    for (const state of ROUTE_STATES) expect(report).toContain(state.toUpperCase());
  });

  it('says what was wrong with an unknown command or flag, exit 2', async () => {
    const command = await bin(['serv']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("unknown command 'serv'");
    expect(command.stderr).toContain('serve');
    const flag = await bin(['routes', '--jsn']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^paybridge routes: Unknown option '--jsn'.*paybridge routes --help/m);
    const failed = await bin(['openapi', 'v3']);
    expect(failed).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"v3" is not a generation; name legacy or current'),
    });
    expect(await bin(['openapi'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('name one generation, legacy or current'),
    });
    expect(await bin(['openapi', 'current', '--yaml'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unexpected "--yaml"'),
    });
    expect(await bin(['help', 'nonexist'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining("unknown command 'nonexist'"),
    });
  });

  it('names a misspelt configuration key with the key it most likely meant, exit 1', async () => {
    const file = tempJson('typo.json', { timeouts: { requestMS: 1000 }, listen: { port: 0 } });
    const typo = await bin(['serve', '--config', file]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('timeouts.requestMS: unknown field (did you mean timeouts.requestMs?)');
    const far = await bin(['serve', '--config', tempJson('far.json', { listen: { somethingElse: 1 } })]);
    expect(far.stderr).toMatch(/listen\.somethingElse: unknown field\n/);
  });

  it.skipIf(terminal.skip)(
    'translate at a terminal says what it waits for, then translates what is typed',
    async () => {
      // script(1) runs the command on a terminal of its own: what a person typing would see
      const child = spawn(terminal.path(), ['-qfec', `${process.execPath} ${BIN} translate`, '/dev/null'], {
        stdio: 'pipe',
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      await vi.waitFor(() => expect(out).toContain('reading one legacy request as JSON'), { timeout: 25_000 });
      child.stdin.write(
        `${JSON.stringify({ method: 'GET', path: '/orders/ordr_1', headers: { 'limepay-secretkey': 'sandbox_sk_solo_secret_key' } })}\n\u0004`,
      );
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(out).toContain('"authorization": "Bearer sandbox_sk_solo_secret_key"');
    },
  );
});
