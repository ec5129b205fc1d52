/** A command line the program cannot run (a missing or malformed argument): exit 2, naming it. */
export class UsageError extends Error {
  readonly code = 'ERR_PAYBRIDGE_USAGE';
}

/** A non-negative integer option, or an Error naming the flag. */
export function intOption(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`${flag}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Runs close() once on SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
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
}
