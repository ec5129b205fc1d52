/**
 * Every command README shows a newcomer is run: here (as written, with `npx paybridge` as the built
 * bin and the printed port replaced by the one the test's gateway got), or by the test named for it.
 * A command added to README without a way to run it fails this test.
 */
import { exec } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';
import { BIN } from '../helpers/spawn.js';

const sh = promisify(exec);
const ROOT = new URL('../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The command lines of README's indented code blocks, comments after `#` dropped. */
const COMMANDS = README.split('\n')
  .filter((line) => /^ {4}(npm|npx|curl|echo|git|docker|node) /.test(line))
  .map((line) => line.trim().replace(/\s+#\s.*$/, ''));

/** Commands another test runs as README gives them. */
const RUN_ELSEWHERE: Record<string, string> = {
  'npm install && npm start': 'test/gateway/start.test.ts',
  'npm install && npm test': '.ci/run',
  'git clone <this repository> paybridge && (cd paybridge && npm install && npm pack)':
    'test/translate/package.test.ts',
  'npm install ./paybridge/paybridge-0.1.0.tgz undici@7': 'test/translate/package.test.ts',
  'npm init -y && npm pkg set type=module': 'test/translate/package.test.ts',
  'npm install --save-dev typescript@5.9 @types/node@22': 'test/translate/package.test.ts',
  'npx tsc && node app.js': 'test/translate/package.test.ts',
};

const asBin = (command: string) =>
  command.replace(/\bnpx paybridge\b/g, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`);

describe("README's commands", () => {
  it('are each run: here, or by the test named for them', () => {
    expect(COMMANDS.length).toBeGreaterThan(8);
    for (const command of COMMANDS) {
      const here = HERE.some((pattern) => pattern.test(command));
      expect(here || command in RUN_ELSEWHERE, `README command with no test: ${command}`).toBe(true);
      if (!here) expect(existsSync(join(ROOT, RUN_ELSEWHERE[command]!)), command).toBe(true);
    }
    // the package version README's install line names is the one `npm pack` makes
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(COMMANDS).toContain(`npm install ./paybridge/paybridge-${version}.tgz undici@7`);
    // and the undici major it names is the one paybridge is built with
    const undici = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies.undici!;
    expect(undici).toMatch(/^\^7\./);
  });

  it('the command-line ones run and exit 0', async () => {
    const cli = COMMANDS.filter((c) =>
      /^(npx paybridge (help|--version|routes(?! --gateway)|openapi)|echo .*\| npx paybridge translate)/.test(c),
    );
    expect(cli.length).toBe(5);
    for (const command of cli) {
      const { stdout } = await sh(asBin(command), { cwd: ROOT });
      expect(stdout.length, command).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the curl call answers the legacy order, as printed, against `npm start`', async () => {
    const curl = COMMANDS.find((c) => c.startsWith('curl ') && c.includes('demo-1'))!;
    const gw = await spawnGateway([]);
    try {
      const { stdout } = await sh(curl.replace('http://127.0.0.1:8080', gw.url));
      expect(JSON.parse(stdout)).toMatchObject({
        internalOrderId: 'demo-1',
        amount: 1000,
        status: 'created',
        merchantOrderId: expect.stringMatching(/^ordr_/),
      });
    } finally {
      await gw.stop();
    }
  });

  it('the migration guide, step by step on the embedded sandbox: legacy, shadow, the report, canary, current, rollback', async () => {
    const at = COMMANDS.findIndex((c) => c.startsWith("npx paybridge serve --mode '*=legacy'"));
    expect(at).toBeGreaterThanOrEqual(0);
    const guide = COMMANDS.slice(at, COMMANDS.findIndex((c, i) => i > at && c.startsWith('npx paybridge report')) + 1);
    expect(guide.length).toBeGreaterThanOrEqual(9);
    const cwd = mkdtempSync(join(tmpdir(), 'paybridge-readme-'));
    const args = guide[0]!
      .replace(/^npx paybridge serve /, '')
      .match(/'[^']*'|\S+/g)!
      .map((a) => a.replace(/^'|'$/g, ''));
    const gw = await spawnGateway(args.map((a) => (a === 'shadow.jsonl' ? join(cwd, a) : a)));
    const seen: unknown[] = [];
    /** The L1 comparisons the gateway counted (its Prometheus series): the guide's shadowed order, once compared. */
    const comparisons = async (url: string) =>
      [
        ...(await (await fetch(`${url}/metrics`)).text()).matchAll(
          /^paybridge_shadow_comparisons_total\{route="L1",[^}]*\} (\d+)$/gm,
        ),
      ].reduce((sum, m) => sum + Number(m[1]), 0);
    try {
      for (const step of guide.slice(1, -1)) {
        const { stdout } = await sh(asBin(step.replaceAll('http://127.0.0.1:8080', gw.url)), { cwd });
        const answer = step.startsWith('curl') ? (JSON.parse(stdout) as Record<string, unknown>) : stdout;
        expect(
          typeof answer === 'object' && answer !== null && 'errorCode' in answer,
          `${step}: ${stdout.slice(0, 300)}`,
        ).toBe(false);
        seen.push(answer);
        // the report is read after the shadowed order: wait for its comparison to be counted
        if (step.includes('-X POST'))
          await vi.waitFor(async () => expect(await comparisons(gw.url)).toBeGreaterThan(0), {
            timeout: 10_000,
            interval: 20,
          });
      }
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const modes = seen
      .filter(
        (a): a is { routes: { route: string; mode: string }[] } => typeof a === 'object' && a !== null && 'scope' in a,
      )
      .map((t) => t.routes.find((r) => r.route === 'L1')!.mode);
    expect(modes).toEqual(['shadow', 'canary', 'current', 'legacy']);
    const report = seen.find(
      (a): a is { routes: { route: string; compared: number }[] } =>
        typeof a === 'object' && a !== null && 'totals' in a,
    )!;
    expect(report.routes.find((r) => r.route === 'L1')!.compared).toBe(1);
    expect(seen.at(-1)).toMatch(/^L1\s+POST \/orders\s+legacy/m);
    const { stdout } = await sh(asBin(guide.at(-1)!), { cwd });
    expect(stdout).toMatch(/^L1\s+(COLLECTING|READY)\s+1 compared/m);
  }, 60_000);
});

/** The commands this file runs itself. */
const HERE = [
  /^npx paybridge (help|--version|routes|openapi) ?/,
  /^echo .*\| npx paybridge translate$/,
  /^curl /,
  /^npx paybridge serve --mode /,
  /^npx paybridge report /,
];
