/** A command line the program cannot run (a missing or malformed argument): exit 2, naming it. */
export class UsageError extends Error {
  readonly code = 'ERR_PAYBRIDGE_USAGE';
}

/** A non-negative integer option, or an Error naming the flag. */
export function intOption(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** How often a server run by an npm script looks whether npm is still there. */
const PARENT_POLL_MS = 500;

/**
 * Runs close() once on SIGTERM or SIGINT, then exits; a second signal exits at once. Under an npm
 * script (`npm start`, `npm run sandbox`) also when npm is gone: npm does not pass a signal on to its
 * script, so `kill <npm's pid>` would leave the server holding its port. package.json's scripts
 * `exec` the command, so the parent is npm itself; once it exits, the parent changes.
 */
export function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const watch: { timer?: NodeJS.Timeout } = {};
  const handler = (signal: NodeJS.Signals | 'parent gone') => {
    if (closing) process.exit(1);
    closing = true;
    clearInterval(watch.timer);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`shutdown after ${signal} failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  const script = process.env.npm_lifecycle_event;
  if (script === undefined) return;
  const parent = process.ppid;
  watch.timer = setInterval(() => {
    if (process.ppid === parent) return;
    process.stderr.write(`the parent process ${parent} (npm ${script}) is gone: stopping as on SIGTERM\n`);
    handler('parent gone');
  }, PARENT_POLL_MS).unref();
}
