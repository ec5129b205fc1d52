/**
 * The gateway's configuration: one zod .strict() schema, filled from a file (--config), then
 * PAYBRIDGE_* environment variables, then flags (later wins). Parsed once and frozen; an invalid or
 * unknown setting stops start-up with a message naming it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues } from './contract/zod-helpers.js';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8080,
  connectTimeoutMs: 2_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  bodyLimitBytes: 1024 * 1024,
  logLevel: 'info',
  merchantKeyCacheMax: 10_000,
  merchantKeyCacheTtlMs: 5 * 60_000,
  /** Fits a 512 MB container with room to spare: the bodies waiting for comparison, at most. */
  shadowQueueBytes: 32 * 1024 * 1024,
  /** Client side, for a gateway facing the internet. */
  clientHeadersMs: 10_000,
  clientRequestMs: 30_000,
  clientKeepAliveMs: 5_000,
  maxConnections: 10_000,
  maxRequestsPerSocket: 1_000,
} as const;

/** Room left, past the longest a request can take, before a shutdown gives up on in-flight requests. */
export const SHUTDOWN_MARGIN_MS = 5_000;

export const ROUTE_MODES = ['current', 'legacy', 'shadow', 'canary'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

/** A legacy route id (L1-L31) or `*` for every route. */
const routeKey = z.string().regex(/^(\*|L([1-9]|[12]\d|3[01]))$/, 'expected a route id L1-L31 or *');
const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const upstreamPair = z.strictObject({ current: url.optional(), legacy: url.optional() });

export const configSchema = z.strictObject({
  listen: z
    .strictObject({ host: z.string().min(1).default(DEFAULTS.host), port: z.int().min(0).max(65_535).default(DEFAULTS.port) })
    .prefault({}),
  /** Base URLs per environment; a credential's prefix (sandbox_ / live_) picks the environment. */
  upstreams: z.strictObject({ sandbox: upstreamPair.prefault({}), live: upstreamPair.prefault({}) }).prefault({}),
  /** Environment of credentials without a sandbox_/live_ prefix (JWTs, checkout and merchant tokens). */
  defaultEnvironment: z.enum(['sandbox', 'live']).optional(),
  /** Mode per legacy route id, `*` for the rest; default current (translate). */
  routes: z.record(routeKey, z.enum(ROUTE_MODES)).default({ '*': 'current' }),
  /** A legacy path that is not in the route table: refused (404 route_not_mapped) or passed to the legacy upstream. */
  unmappedRoutes: z.enum(['reject', 'legacy']).default('reject'),
  timeouts: z
    .strictObject({
      connectMs: z.int().min(1).default(DEFAULTS.connectTimeoutMs),
      headersMs: z.int().min(1).default(DEFAULTS.headersTimeoutMs),
      bodyMs: z.int().min(1).default(DEFAULTS.bodyTimeoutMs),
      /** Whole upstream exchange, however slowly the answer trickles in. */
      requestMs: z.int().min(1).default(DEFAULTS.requestTimeoutMs),
      /** How long SIGTERM waits for in-flight requests; default: the longest a request can take, plus a margin. */
      shutdownMs: z.int().min(1).optional(),
    })
    .prefault({}),
  /** The client side: how long a client may take to send, how many connections and requests it may hold. */
  client: z
    .strictObject({
      /** Until the request headers are in (slowloris). */
      headersMs: z.int().min(1).default(DEFAULTS.clientHeadersMs),
      /** Until the whole request, body included, is in; a slower client gets a legacy 408 and its connection closed. */
      requestMs: z.int().min(1).default(DEFAULTS.clientRequestMs),
      /** An idle keep-alive connection is closed after this. */
      keepAliveMs: z.int().min(1).default(DEFAULTS.clientKeepAliveMs),
      maxConnections: z.int().min(1).default(DEFAULTS.maxConnections),
      /** Requests one connection may carry before it is closed (0: no cap). */
      maxRequestsPerSocket: z.int().min(0).default(DEFAULTS.maxRequestsPerSocket),
    })
    .prefault({}),
  bodyLimitBytes: z.int().min(1024).max(64 * 1024 * 1024).default(DEFAULTS.bodyLimitBytes),
  /** Merchant token -> merchant id (legacy Limepay-MerchantToken), and the marketplace key that reads their public keys. */
  merchantTokens: z.record(z.string().min(8), z.string().regex(/^mcht_[A-Za-z0-9_-]+$/, 'expected a mcht_ id')).default({}),
  serviceKey: z.string().regex(/^(sandbox|live)_api_[A-Za-z0-9_-]+$/, 'expected a marketplace API key (sandbox_api_... or live_api_...)').optional(),
  merchantKeyCache: z
    .strictObject({ max: z.int().min(1).default(DEFAULTS.merchantKeyCacheMax), ttlMs: z.int().min(1).default(DEFAULTS.merchantKeyCacheTtlMs) })
    .prefault({}),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default(DEFAULTS.logLevel),
  shadow: z
    .strictObject({
      /** Comparison records appended to this file (JSON lines); without it they go to the log stream. */
      log: z.string().min(1).optional(),
      /** Share of requests compared, per route id or `*`. */
      sample: z.record(routeKey, z.number().min(0).max(1)).default({ '*': 1 }),
      /** Per route id or `*`: validate, readback (default for writes) or send (isolated sandbox candidates only). */
      writeSafety: z.record(routeKey, z.enum(['validate', 'readback', 'send'])).default({}),
      /** Declares the candidate upstream a separate, isolated sandbox: the only case `send` is allowed. */
      candidateIsolated: z.boolean().default(false),
      /** Differences to ignore: route id or `*`, and a JSON-path glob (`refunds[*].createdAt`, `**.updatedAt`). */
      ignore: z.array(z.strictObject({ route: routeKey, path: z.string().min(1) })).default([]),
      /** Share of compared reads also sent twice to the primary, to learn which paths are noise. */
      learnSample: z.number().min(0).max(1).default(0.1),
      queueSize: z.int().min(1).max(1_000_000).default(1000),
      /** Bytes of request and answer bodies the queue may hold; what does not fit is dropped and counted. */
      queueBytes: z.int().min(1024).default(DEFAULTS.shadowQueueBytes),
      concurrency: z.int().min(1).max(256).default(4),
      /** Comparisons a route needs, all matching among the last ones, to be ready to cut over. */
      readyAfter: z.int().min(1).default(50),
      /** Name of this gateway instance in the records (default: host name and pid). */
      instance: z.string().min(1).optional(),
    })
    .prefault({}),
  /** OTLP/HTTP endpoint (`http://collector:4318`) spans are exported to; off without one. */
  otlpEndpoint: url.optional(),
  /** Bearer token for /_paybridge/ (the shadow report); the report is off without one. */
  operatorToken: z.string().min(16, 'expected at least 16 characters').optional(),
}).transform((config) => ({
  ...config,
  timeouts: {
    ...config.timeouts,
    shutdownMs: config.timeouts.shutdownMs ?? longestRequestMs(config) + SHUTDOWN_MARGIN_MS,
  },
})).superRefine((config, ctx) => {
  if (config.timeouts.shutdownMs <= longestRequestMs(config))
    ctx.addIssue({
      code: 'custom',
      path: ['timeouts', 'shutdownMs'],
      message: `must exceed the longest a request can take (client.requestMs + timeouts.requestMs = ${longestRequestMs(config)} ms), or a shutdown could cut off the answer to a write already sent upstream`,
    });
  for (const [route, safety] of Object.entries(config.shadow.writeSafety))
    if (safety === 'send' && !config.shadow.candidateIsolated)
      ctx.addIssue({
        code: 'custom',
        path: ['shadow', 'writeSafety', route],
        message: 'send is allowed only when shadow.candidateIsolated declares the candidate an isolated sandbox',
      });
});

/** Receiving the request, then its upstream calls under one deadline. */
function longestRequestMs(config: { timeouts: { requestMs: number }; client: { requestMs: number } }): number {
  return config.client.requestMs + config.timeouts.requestMs;
}

export type Config = Readonly<z.output<typeof configSchema>>;
export type ConfigInput = z.input<typeof configSchema>;

/** A configuration problem, naming the setting (`timeouts.headersMs`, `PAYBRIDGE_PORT`, `--port`). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`invalid configuration: ${message}`);
    this.name = 'ConfigError';
  }
}

type Json = Record<string, unknown>;

/** Sets a dotted path of a plain object, creating the objects on the way. */
function setPath(target: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof at[part] !== 'object' || at[part] === null) at[part] = {};
    at = at[part] as Json;
  }
  at[parts.at(-1)!] = value;
}

const intValue = (name: string, value: string): number => {
  if (!/^\d+$/.test(value)) throw new ConfigError(`${name}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
};

/** `L7=shadow,*=current` or repeated flags -> {L7: 'shadow', '*': 'current'}. */
export function parseModes(name: string, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name}: expected ROUTE=MODE, got ${JSON.stringify(item)}`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** Reads a JSON file of the operator's, naming the setting it came from when it cannot. */
export function readJsonFile(setting: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${setting}: cannot read ${file}: ${(err as Error).message}`);
  }
}

/** How each flag and environment variable lands in the schema. */
interface Setting {
  flag: string;
  env: string;
  path: string;
  kind: 'string' | 'int' | 'number' | 'file' | 'modes';
  /** For `paybridge serve --help`: what it sets, and its default. */
  describe: string;
  default: string;
}

export const SETTINGS: readonly Setting[] = [
  { flag: 'host', env: 'PAYBRIDGE_HOST', path: 'listen.host', kind: 'string', describe: 'address to listen on', default: '127.0.0.1' },
  { flag: 'port', env: 'PAYBRIDGE_PORT', path: 'listen.port', kind: 'int', describe: 'port to listen on (0: any free one)', default: '8080' },
  { flag: 'current-url', env: 'PAYBRIDGE_CURRENT_URL', path: 'upstreams.sandbox.current', kind: 'string', describe: 'current API base URL of the sandbox environment', default: 'the embedded sandbox' },
  { flag: 'legacy-url', env: 'PAYBRIDGE_LEGACY_URL', path: 'upstreams.sandbox.legacy', kind: 'string', describe: 'legacy API base URL of the sandbox environment', default: 'the embedded sandbox' },
  { flag: 'live-current-url', env: 'PAYBRIDGE_LIVE_CURRENT_URL', path: 'upstreams.live.current', kind: 'string', describe: 'current API base URL of the live environment', default: 'none' },
  { flag: 'live-legacy-url', env: 'PAYBRIDGE_LIVE_LEGACY_URL', path: 'upstreams.live.legacy', kind: 'string', describe: 'legacy API base URL of the live environment', default: 'none' },
  { flag: 'default-environment', env: 'PAYBRIDGE_DEFAULT_ENVIRONMENT', path: 'defaultEnvironment', kind: 'string', describe: 'environment of credentials without a sandbox_/live_ prefix (sandbox, live)', default: 'the configured one' },
  { flag: 'merchant-tokens', env: 'PAYBRIDGE_MERCHANT_TOKENS', path: 'merchantTokens', kind: 'file', describe: 'JSON file: legacy merchant token -> mcht_ id', default: 'none' },
  { flag: 'service-key', env: 'PAYBRIDGE_SERVICE_KEY', path: 'serviceKey', kind: 'string', describe: "marketplace API key the gateway reads merchants' public keys with", default: 'none' },
  { flag: 'mode', env: 'PAYBRIDGE_MODE', path: 'routes', kind: 'modes', describe: 'ROUTE=MODE, repeatable: current, legacy, shadow or canary per route id or *', default: '*=current' },
  { flag: 'unmapped-routes', env: 'PAYBRIDGE_UNMAPPED_ROUTES', path: 'unmappedRoutes', kind: 'string', describe: 'a path outside the route table: reject (404) or legacy (pass through)', default: 'reject' },
  { flag: 'connect-timeout-ms', env: 'PAYBRIDGE_CONNECT_TIMEOUT_MS', path: 'timeouts.connectMs', kind: 'int', describe: 'upstream connect timeout', default: '2000' },
  { flag: 'headers-timeout-ms', env: 'PAYBRIDGE_HEADERS_TIMEOUT_MS', path: 'timeouts.headersMs', kind: 'int', describe: 'upstream headers timeout', default: '15000' },
  { flag: 'body-timeout-ms', env: 'PAYBRIDGE_BODY_TIMEOUT_MS', path: 'timeouts.bodyMs', kind: 'int', describe: 'upstream gap between body chunks', default: '15000' },
  { flag: 'request-timeout-ms', env: 'PAYBRIDGE_REQUEST_TIMEOUT_MS', path: 'timeouts.requestMs', kind: 'int', describe: 'one deadline per request, every upstream call of it included', default: '30000' },
  { flag: 'shutdown-timeout-ms', env: 'PAYBRIDGE_SHUTDOWN_TIMEOUT_MS', path: 'timeouts.shutdownMs', kind: 'int', describe: 'how long SIGTERM waits for in-flight requests', default: 'client + request timeouts + 5000' },
  { flag: 'client-headers-timeout-ms', env: 'PAYBRIDGE_CLIENT_HEADERS_TIMEOUT_MS', path: 'client.headersMs', kind: 'int', describe: "a client's headers must arrive within this (else a legacy 408)", default: '10000' },
  { flag: 'client-request-timeout-ms', env: 'PAYBRIDGE_CLIENT_REQUEST_TIMEOUT_MS', path: 'client.requestMs', kind: 'int', describe: "a client's whole request must arrive within this (else a legacy 408)", default: '30000' },
  { flag: 'max-connections', env: 'PAYBRIDGE_MAX_CONNECTIONS', path: 'client.maxConnections', kind: 'int', describe: 'client connections at most', default: '10000' },
  { flag: 'body-limit', env: 'PAYBRIDGE_BODY_LIMIT', path: 'bodyLimitBytes', kind: 'int', describe: 'largest request body in bytes (413 beyond)', default: '1048576' },
  { flag: 'log-level', env: 'PAYBRIDGE_LOG_LEVEL', path: 'logLevel', kind: 'string', describe: 'fatal, error, warn, info, debug, trace or silent', default: 'info' },
  { flag: 'shadow-log', env: 'PAYBRIDGE_SHADOW_LOG', path: 'shadow.log', kind: 'string', describe: 'file the shadow comparison records are appended to (JSON lines)', default: 'the log stream' },
  { flag: 'shadow-sample', env: 'PAYBRIDGE_SHADOW_SAMPLE', path: 'shadow.sample.*', kind: 'number', describe: 'share of requests compared in shadow and canary modes, 0-1', default: '1' },
  { flag: 'otlp-endpoint', env: 'PAYBRIDGE_OTLP_ENDPOINT', path: 'otlpEndpoint', kind: 'string', describe: 'OTLP/HTTP endpoint OpenTelemetry spans are exported to (http://collector:4318)', default: 'none: tracing off' },
  { flag: 'operator-token', env: 'PAYBRIDGE_OPERATOR_TOKEN', path: 'operatorToken', kind: 'string', describe: 'bearer token of /_paybridge/ (the shadow report), 16+ characters', default: 'none: report off' },
];

/** PAYBRIDGE_* variables that are not settings but choose how settings are read. */
const NON_SETTING_ENV = new Set(['PAYBRIDGE_CONFIG']);

export interface ConfigSources {
  /** Contents of --config (already read), or undefined. */
  file?: unknown;
  fileName?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Flag values by flag name (without --); `mode` may repeat. */
  flags?: Readonly<Record<string, string | string[] | undefined>>;
}

function apply(target: Json, setting: Setting, name: string, raw: string | readonly string[]): void {
  const values = typeof raw === 'string' ? [raw] : raw;
  const last = values.at(-1)!;
  switch (setting.kind) {
    case 'int':
      return setPath(target, setting.path, intValue(name, last));
    case 'number': {
      if (!/^\d+(\.\d+)?$/.test(last)) throw new ConfigError(`${name}: expected a number, got ${JSON.stringify(last)}`);
      return setPath(target, setting.path, Number(last));
    }
    case 'file':
      return setPath(target, setting.path, readJsonFile(name, last));
    case 'modes': {
      const existing = (target.routes ?? {}) as Json;
      return setPath(target, setting.path, { ...existing, ...parseModes(name, values) });
    }
    default:
      return setPath(target, setting.path, last);
  }
}

/** The one configuration: file, then environment, then flags; validated by the schema and frozen. */
export function loadConfig(sources: ConfigSources): Config {
  const merged: Json = structuredClone((sources.file ?? {}) as Json);
  if (typeof merged !== 'object' || merged === null || Array.isArray(merged))
    throw new ConfigError(`${sources.fileName ?? 'config file'}: expected a JSON object`);
  const env = sources.env ?? {};
  for (const name of Object.keys(env)) {
    if (!name.startsWith('PAYBRIDGE_') || NON_SETTING_ENV.has(name) || env[name] === undefined) continue;
    const setting = SETTINGS.find((s) => s.env === name);
    if (!setting) throw new ConfigError(`${name}: unknown setting (known: ${SETTINGS.map((s) => s.env).join(', ')})`);
    apply(merged, setting, name, env[name]!);
  }
  for (const [flag, value] of Object.entries(sources.flags ?? {})) {
    if (value === undefined) continue;
    const setting = SETTINGS.find((s) => s.flag === flag);
    if (!setting) throw new ConfigError(`--${flag}: unknown option`);
    apply(merged, setting, `--${flag}`, value);
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  return deepFreeze(parsed.data);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** True when no upstream URL is configured for any environment: the gateway then embeds the sandbox. */
export function hasNoUpstream(config: Config): boolean {
  const { sandbox, live } = config.upstreams;
  return !sandbox.current && !sandbox.legacy && !live.current && !live.legacy;
}
