#!/usr/bin/env node
/**
 * The Docker image's HEALTHCHECK: GET /healthz of the gateway that `paybridge serve` with the same
 * command line would start. Its address is read as serve reads it (the same sources: --config or
 * PAYBRIDGE_CONFIG, PAYBRIDGE_* variables, the same flags; a Kubernetes service link such as
 * PAYBRIDGE_PORT=tcp://10.0.0.1:8080 is no setting here either), a wildcard host asked on loopback.
 * Exit 0 on a 200 within the timeout; 1 otherwise, the reason on stderr. It runs every few seconds,
 * so it loads the configuration's sources only, not the gateway.
 */
import { commandLineSources, LISTEN_DEFAULTS, mergeSources } from './config-sources.js';

const TIMEOUT_MS = 2_000;

/** The URL of /healthz for a command line and environment, as serve would listen. */
function healthUrl(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  const { listen } = mergeSources(commandLineSources(argv, env)) as { listen?: { host?: unknown; port?: unknown } };
  const host = typeof listen?.host === 'string' ? listen.host : LISTEN_DEFAULTS.host;
  const port = typeof listen?.port === 'number' ? listen.port : LISTEN_DEFAULTS.port;
  if (port === 0) throw new Error('listen.port is 0 (any free port): the port the gateway took cannot be known here');
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}/healthz`;
}

let url: string | undefined;
try {
  url = healthUrl(process.argv.slice(2), process.env);
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  await res.body?.cancel();
  if (res.status !== 200) throw new Error(`answered ${res.status}`);
} catch (err) {
  const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
  process.stderr.write(`healthcheck: ${url ? `${url}: ` : ''}${(err as Error).message}${cause ? ` (${cause})` : ''}\n`);
  process.exitCode = 1;
}
