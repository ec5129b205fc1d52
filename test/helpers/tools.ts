/**
 * A tool some tests need beyond Node (Chromium, Prometheus's promtool, script(1) for a terminal):
 * found, or those tests are skipped with one line on stderr saying how to get it, except under CI=true
 * (`bash .ci/run` installs every one), where a missing tool fails each test that needs it, naming it.
 */
import { spawnSync } from 'node:child_process';

export interface Tool {
  /** For `it.skipIf()`: not found, and not required. */
  readonly skip: boolean;
  /** The command (or path) to run; throws, naming the tool and how to get it, when it was not found. */
  path(): string;
}

/** `found`: the tool's command or path, or undefined. */
export function optionalTool(name: string, found: string | undefined, install: string): Tool {
  const required = process.env.CI === 'true';
  if (found === undefined && !required)
    process.stderr.write(`${name} tests skipped: ${name} not found; ${install} to run them\n`);
  return {
    skip: found === undefined && !required,
    path() {
      if (found === undefined) throw new Error(`${name} not found (CI=true requires it): ${install}`);
      return found;
    },
  };
}

/** A command on PATH that answers `args` with exit status 0, or undefined. */
const command = (name: string, args: string[]): string | undefined =>
  spawnSync(name, args, { stdio: 'ignore' }).status === 0 ? name : undefined;

/** Prometheus's promtool, from Debian's prometheus package. */
export const promtool = (): Tool =>
  optionalTool('promtool', command('promtool', ['--version']), 'apt-get install prometheus');

/** script(1) from util-linux: runs a command on a terminal of its own. */
export const script = (): Tool =>
  optionalTool('script(1)', command('script', ['--version']), 'apt-get install util-linux (script)');
