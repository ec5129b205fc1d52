import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { logPath } from './logs.js';

export const BIN = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once stdout (or stderr, with `from`) matches; rejects if the process exits first or after timeoutMs. */
  waitFor: (pattern: RegExp, timeoutMs?: number, from?: 'stdout' | 'stderr') => Promise<RegExpMatchArray>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Runs the paybridge bin as a user would: `node dist/src/cli.js <args>`. */
export function spawnBin(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: 'pipe',
    ...(cwd ? { cwd } : {}),
  });
  let out = '';
  let err = '';
  // the gateway's log lines (stdout) are kept for the secrets scan; the sandbox prints its seeded
  // credentials on purpose, so its output is not a log
  const keep = args[0] === 'serve' ? createWriteStream(logPath('gateway-bin')) : undefined;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    keep?.write(d);
  });
  child.on('exit', () => keep?.end());
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = 10_000, from: 'stdout' | 'stderr' = 'stdout') =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)),
        timeoutMs,
      );
      const check = () => {
        const match = (from === 'stdout' ? out : err).match(pattern);
        if (match) done(null, match);
      };
      const onExit = (code: number | null) =>
        done(new Error(`exited ${code} before ${pattern}; stdout: ${out}; stderr: ${err}`));
      const done = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve(match!);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.on('exit', onExit);
      check();
    });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return { child, stdout: () => out, stderr: () => err, exited, waitFor, stop };
}
