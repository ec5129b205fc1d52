import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import { errorResponse } from '../translate/answers.js';
import { createTranslator } from '../translate/index.js';
import { LEGACY_ROUTES } from '../translate/legacy-routes.js';
import { UsageError } from './util.js';

export const TRANSLATE_USAGE = `paybridge translate [--current-url URL --merchant-tokens FILE --service-key KEY]
  Reads one legacy request as JSON on stdin, {method, path, headers, body}, and prints the current
  request in the same form. A request it cannot translate prints the legacy error object and exits 1.
  A Limepay-MerchantToken request needs the three options to resolve the merchant's public key.`;

export const ROUTES_USAGE = `paybridge routes [--json] [--gateway URL... [--operator-token TOKEN]]
  Prints the legacy route table (legacy call, current call, mapping file) and a changelog generated
  from the mapping descriptions. With --gateway, a running gateway's live table instead: each route's
  mode, sample rate and, for a write, its write safety (the token also from PAYBRIDGE_OPERATOR_TOKEN). With
  --gateway repeated (each replica's address), the first one's table and every replica's configuration
  hash: exit 1 unless they all run the same configuration (every replica took a change).`;

const requestSchema = z.strictObject({
  method: z.string().min(1),
  path: z.string().startsWith('/'),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  body: z.unknown().optional(),
});

/** The operator's merchant-token table file: a JSON object, merchant token -> merchant id. */
function readMerchantTokens(file: string): Record<string, string> {
  const parsed = z.record(z.string(), z.string().startsWith('mcht_')).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`merchant tokens ${file}: expected a JSON object of merchant token -> mcht_ id`);
  return parsed.data;
}

async function readStdin(): Promise<string> {
  // typed at a terminal: say what is awaited rather than wait in silence
  if (process.stdin.isTTY)
    process.stderr.write(
      'paybridge translate: reading one legacy request as JSON, {method, path, headers, body}; end it with Ctrl-D (or pipe a file in)\n',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runTranslate(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'current-url': { type: 'string' },
      'merchant-tokens': { type: 'string' },
      'service-key': { type: 'string' },
    },
    strict: true,
  });
  const translator = createTranslator({
    ...(values['merchant-tokens'] ? { merchantTokens: readMerchantTokens(values['merchant-tokens']) } : {}),
    ...(values['current-url'] ? { currentUrl: values['current-url'] } : {}),
    ...(values['service-key'] ? { serviceKey: values['service-key'] } : {}),
  });
  const requestId = randomUUID();
  let output: unknown;
  try {
    let input: unknown;
    try {
      input = JSON.parse(await readStdin());
    } catch {
      throw new PaybridgeError('invalid_request', 'stdin: expected one JSON object {method, path, headers, body}');
    }
    const parsed = requestSchema.safeParse(input);
    if (!parsed.success)
      throw new PaybridgeError(
        'invalid_request',
        `stdin: ${parsed.error.issues[0]?.path.join('.') || 'request'}: ${parsed.error.issues[0]?.message}`,
      );
    const headers = Object.fromEntries(Object.entries(parsed.data.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const {
      method,
      path,
      headers: currentHeaders,
      body,
    } = await translator.toCurrent({ ...parsed.data, headers, requestId });
    output = { method, path, headers: currentHeaders, ...(body !== undefined ? { body } : {}) };
  } catch (err) {
    const answer =
      err instanceof PaybridgeError
        ? legacyErrorBody(err.code, err.detail, requestId)
        : errorResponse(err, requestId).body;
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
}

interface LiveTable {
  instance: string;
  version: number;
  hash: string;
  changedAt: string;
  source: string;
  scope: string;
  routes: { route: string; legacy: string; mode: string; sample: number; writeSafety?: string }[];
}

/** A running gateway's live route table (GET /_paybridge/routes). */
async function liveTable(gateway: string, token: string): Promise<LiveTable> {
  let res: Response;
  try {
    res = await fetch(`${gateway.replace(/\/+$/, '')}/_paybridge/routes`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
  } catch (err) {
    throw new Error(`routes: ${gateway} could not be reached (${(err as Error).message})`, { cause: err });
  }
  const body = (await res.json().catch(() => undefined)) as
    LiveTable | { errorCode?: string; detail?: string } | undefined;
  if (!res.ok || !body || !('routes' in body))
    throw new Error(
      `routes: ${gateway} answered ${res.status} ${body && 'detail' in body ? `${body.errorCode}: ${body.detail}` : ''}`.trim(),
    );
  return body;
}

/**
 * Running gateways' live route tables, printed: the first one's routes (mode, sample rate, write
 * safety), then, for several replicas, each one's configuration hash; replicas that differ exit 1.
 */
async function liveRoutes(gateways: readonly string[], token: string | undefined, json: boolean): Promise<void> {
  if (!token)
    throw new UsageError('--gateway needs the operator token: --operator-token TOKEN or PAYBRIDGE_OPERATOR_TOKEN');
  const tables = await Promise.all(gateways.map((g) => liveTable(g, token)));
  const body = tables[0]!;
  const hashes = new Set(tables.map((t) => t.hash));
  if (json) process.stdout.write(`${JSON.stringify(gateways.length === 1 ? body : tables, null, 2)}\n`);
  else {
    const width = Math.max(...body.routes.map((r) => r.legacy.length));
    const lines = [
      `Live route table of ${body.instance} (version ${body.version}, ${body.changedAt}, by ${body.source}); ${body.scope}`,
      '',
    ];
    // the gateway sends them by route id; a read has no write safety to show
    for (const r of body.routes)
      lines.push(
        `${r.route.padEnd(4)} ${r.legacy.padEnd(width)}  ${r.mode.padEnd(12)} sample ${String(r.sample).padEnd(5)}${r.writeSafety ? ` writes: ${r.writeSafety}` : ''}`.trimEnd(),
      );
    if (gateways.length > 1) {
      lines.push(
        '',
        `Replicas: ${hashes.size === 1 ? `all ${tables.length} run one configuration (hash ${body.hash})` : `${hashes.size} configurations among ${tables.length}: not every replica took the change`}`,
      );
      tables.forEach((t, i) =>
        lines.push(
          `  ${gateways[i]}  ${t.instance}  hash ${t.hash}  version ${t.version} (${t.changedAt}, by ${t.source})`,
        ),
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (hashes.size > 1) process.exitCode = 1;
}

export async function runRoutes(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      json: { type: 'boolean', default: false },
      gateway: { type: 'string', multiple: true },
      'operator-token': { type: 'string' },
    },
    strict: true,
  });
  if (values.gateway !== undefined)
    return liveRoutes(values.gateway, values['operator-token'] ?? process.env.PAYBRIDGE_OPERATOR_TOKEN, values.json);
  const { routes } = createTranslator();
  const byId = new Map(routes.mappings.map((c) => [c.mapping.route, c.mapping]));
  const rows = LEGACY_ROUTES.map((r) => {
    const m = byId.get(r.id);
    return {
      id: r.id,
      tier: r.tier,
      legacy: `${r.method} ${r.path}`,
      current: m?.current ?? '(not mapped)',
      file: m?.source ?? '-',
      description: m?.description ?? '',
    };
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const width = Math.max(...rows.map((r) => r.legacy.length));
  const currentWidth = Math.max(...rows.map((r) => r.current.length));
  const lines = ['Legacy route table (legacy-api.md section 3), compiled from mappings/', ''];
  for (const r of rows)
    lines.push(`${r.id.padEnd(4)} ${r.legacy.padEnd(width)}  ->  ${r.current.padEnd(currentWidth)}  ${r.file}`);
  lines.push('', 'Changelog: what changed for each legacy call (from the mapping descriptions)', '');
  for (const r of rows) lines.push(`- ${r.id} ${r.legacy}: ${r.description || '(no mapping)'}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
