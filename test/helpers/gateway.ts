import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { createGateway } from '../../src/gateway/server.js';
import { logStream } from './logs.js';
import { spawnBin, type Spawned } from './spawn.js';

/** A JSON file in a fresh temp dir. */
export function tempJson(name: string, content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'paybridge-')), name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** The gateway bin on a free port (in `cwd`, when given); resolves once it logged its URL. */
export async function spawnGateway(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<Spawned & { url: string }> {
  const proc = spawnBin(['serve', '--port', '0', ...args], env, options.cwd);
  // a gateway that does not come up in time is stopped, not left running past its test
  const [, url] = await proc
    .waitFor(/^paybridge gateway listening on (http:\/\/127\.0\.0\.1:\d+)$/m, options.timeoutMs ?? 10_000, 'stderr')
    .catch(async (err: unknown) => {
      await proc.stop('SIGKILL');
      throw err;
    });
  return Object.assign(proc, { url: url! });
}

/** Collects pino JSON lines written by an in-process gateway (and keeps them for the secrets scan). */
export function logSink() {
  const lines: string[] = [];
  const file = logStream('gateway-sink');
  const stream = {
    write(chunk: string) {
      lines.push(...chunk.split('\n').filter(Boolean));
      file.write(chunk);
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/** An in-process gateway on port 0 from a config object; its logs go to .test-logs/. */
export async function startGateway(input: ConfigInput, stream: NodeJS.WritableStream = logStream('gateway')) {
  const config = loadConfig({ file: { logLevel: 'info', ...input, listen: { host: '127.0.0.1', port: 0 } } });
  const gateway = await createGateway({ config, logStream: stream });
  const url = await gateway.listen();
  return { gateway, url, close: () => gateway.close() };
}
