/** The paybridge program: per-command help with descriptions and defaults, --version, and what was wrong with a bad command or flag (exit 2). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/spawn.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function bin(args: string[]) {
  const p = spawnBin(args);
  return { code: await p.exited, stdout: p.stdout(), stderr: p.stderr() };
}

describe('the paybridge program', () => {
  it('prints its version and its commands', async () => {
    expect(await bin(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = await bin(['help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'sandbox', 'translate', 'routes', 'report', 'openapi']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\s+\\S`, 'm'));
    expect(help.stdout).toContain('Exit codes: 0 done, 1 the command failed, 2 a usage error');
  });

  it('describes every serve flag with its default and variable', async () => {
    const help = await bin(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--port N\s+port to listen on \(0: any free one\) \(default: 8080; PAYBRIDGE_PORT\)/);
    expect(help.stdout).toMatch(/--mode ROUTE=MODE\s+ROUTE=MODE, repeatable/);
    expect((await bin(['help', 'report'])).stdout).toContain('--find ID');
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
    expect(failed.code).toBe(1);
  });
});
