/**
 * The gateway's configuration: one zod .strict() schema, filled from a file (--config), then
 * PAYBRIDGE_* environment variables, then flags (later wins). Parsed once and frozen; an invalid or
 * unknown setting stops start-up with a message naming it.
 */
import { z } from 'zod';
import { ConfigError, LISTEN_DEFAULTS, mergeSources, type ConfigSources } from './config-sources.js';
import { describeIssues } from './contract/zod-helpers.js';
import { isAddressOrRange } from './gateway/proxies.js';
import { LEGACY_ROUTES, ROUTE_IDS } from './translate/legacy-routes.js';

const DEFAULTS = {
  host: LISTEN_DEFAULTS.host,
  port: LISTEN_DEFAULTS.port,
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
const SHUTDOWN_MARGIN_MS = 5_000;

/** The registry's ids as a reader takes them in an error: first-last when they run without a gap. */
function describeRouteIds(): string {
  const ids = LEGACY_ROUTES.map((r) => r.id);
  const numbers = ids.map((id) => Number(id.slice(1)));
  const contiguous = numbers.every((n, i) => n === numbers[0]! + i);
  return contiguous ? `${ids[0]}-${ids.at(-1)}` : ids.join(', ');
}

export const ROUTE_MODES = ['current', 'legacy', 'shadow', 'canary'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

/**
 * A route's mode as configured: one of the modes, or `canary:N%`, a canary that serves N percent of
 * the route's requests from the translation (chosen by `canaryKey`) and the rest from the legacy
 * upstream, both compared like shadow and canary exchanges.
 */
export type ModeSetting = RouteMode | `canary:${number}%`;
const CANARY_SHARE = /^canary:(100|\d{1,2}(?:\.\d{1,2})?)%$/;

/** Whether a value is a mode setting (`canary:12.5%` included). */
export const isModeSetting = (value: unknown): value is ModeSetting =>
  typeof value === 'string' && ((ROUTE_MODES as readonly string[]).includes(value) || CANARY_SHARE.test(value));

/** A mode setting as its mode and the percent of requests the translation serves (current and canary 100, legacy and shadow 0). */
export function parseModeSetting(setting: ModeSetting): { mode: RouteMode; percent: number } {
  const share = CANARY_SHARE.exec(setting);
  if (share) return { mode: 'canary', percent: Number(share[1]) };
  const mode = setting as RouteMode;
  return { mode, percent: mode === 'current' || mode === 'canary' ? 100 : 0 };
}

const modeSetting = z.custom<ModeSetting>(isModeSetting, {
  error: (issue) =>
    `expected current, legacy, shadow, canary or canary:N% (the percent, 0-100, served by the translation), got ${JSON.stringify(issue.input)}`,
});

/** What a percentage canary's choice sticks to: one order's (customer's, merchant's) calls take one path; `request` sticks to nothing. */
const CANARY_KEYS = ['order', 'customer', 'merchant', 'request'] as const;
export type CanaryKey = (typeof CANARY_KEYS)[number];

/** A JSON-lines file bounded in bytes: rotated to `file.1` ... past `maxBytes`, `keep` old files kept. */
const rotatedFile = {
  file: z.string().min(1),
  maxBytes: z
    .int()
    .min(4096)
    .default(64 * 1024 * 1024),
  keep: z.int().min(0).max(100).default(3),
};

/** A route id of the registry (the mappings: `paybridge routes` lists them) or `*` for every route. */
const routeKey = z.string().refine((key) => key === '*' || ROUTE_IDS.has(key), {
  error: (issue) =>
    `expected * or a route id of the route table (${describeRouteIds()}), got ${JSON.stringify(issue.input)}`,
});
const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const upstreamPair = z.strictObject({ current: url.optional(), legacy: url.optional() });

export const configSchema = z
  .strictObject({
    listen: z
      .strictObject({
        host: z.string().min(1).default(DEFAULTS.host),
        port: z.int().min(0).max(65_535).default(DEFAULTS.port),
      })
      .prefault({}),
    /** Base URLs per environment; a credential's prefix (sandbox_ / live_) picks the environment. */
    upstreams: z.strictObject({ sandbox: upstreamPair.prefault({}), live: upstreamPair.prefault({}) }).prefault({}),
    /**
     * Addresses or CIDR ranges of the proxies (a TLS terminator) whose X-Forwarded-Host and
     * X-Forwarded-Proto shape the URLs an upstream builds (a 3DS redirectURL); from any other peer they
     * are ignored. None by default.
     */
    trustedProxies: z
      .array(
        z.string().refine(isAddressOrRange, {
          error: (issue) => `expected an IP address or a CIDR range (10.0.0.0/8), got ${JSON.stringify(issue.input)}`,
        }),
      )
      .default([]),
    /** Environment of credentials without a sandbox_/live_ prefix (JWTs, checkout and merchant tokens). */
    defaultEnvironment: z.enum(['sandbox', 'live']).optional(),
    /** Mode per legacy route id, `*` for the rest; default current (translate). */
    routes: z.record(routeKey, modeSetting).default({ '*': 'current' }),
    /**
     * Modes for one merchant's requests (the merchant the credential belongs to), over `routes`:
     * `{"mcht_solo": {"L6": "current"}}` cuts L6 over for that merchant first.
     */
    routesByMerchant: z
      .record(z.string().regex(/^mcht_[A-Za-z0-9_-]+$/, 'expected a mcht_ id'), z.record(routeKey, modeSetting))
      .default({}),
    /** What a `canary:N%` route's choice sticks to (the order a request names, its customer, its merchant, or each request alone). */
    canaryKey: z.enum(CANARY_KEYS).default('order'),
    /** A legacy path that is not in the route table: refused (404 route_not_mapped) or passed to the legacy upstream. */
    unmappedRoutes: z.enum(['reject', 'legacy']).default('reject'),
    timeouts: z
      .strictObject({
        connectMs: z.int().min(1).default(DEFAULTS.connectTimeoutMs),
        headersMs: z.int().min(1).default(DEFAULTS.headersTimeoutMs),
        bodyMs: z.int().min(1).default(DEFAULTS.bodyTimeoutMs),
        /** Whole upstream exchange, however slowly the answer trickles in. */
        requestMs: z.int().min(1).default(DEFAULTS.requestTimeoutMs),
        /**
         * After SIGTERM, how long the gateway goes on serving with /readyz answering 503, so a load
         * balancer stops sending before the listener closes (Kubernetes: with the preStop delay).
         */
        drainMs: z.int().min(0).default(0),
        /** How long SIGTERM waits for draining, in-flight requests and queued comparisons; default: drainMs plus the longest a request can take, plus a margin. */
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
    bodyLimitBytes: z
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(DEFAULTS.bodyLimitBytes),
    /** Merchant token -> merchant id (legacy Limepay-MerchantToken), and the marketplace key that reads their public keys. */
    merchantTokens: z
      .record(z.string().min(8), z.string().regex(/^mcht_[A-Za-z0-9_-]+$/, 'expected a mcht_ id'))
      .default({}),
    serviceKey: z
      .string()
      .regex(/^(sandbox|live)_api_[A-Za-z0-9_-]+$/, 'expected a marketplace API key (sandbox_api_... or live_api_...)')
      .optional(),
    merchantKeyCache: z
      .strictObject({
        max: z.int().min(1).default(DEFAULTS.merchantKeyCacheMax),
        ttlMs: z.int().min(1).default(DEFAULTS.merchantKeyCacheTtlMs),
      })
      .prefault({}),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default(DEFAULTS.logLevel),
    /** JSON lines, or lines a person reads (pino-pretty); `auto`: pretty when standard output is a terminal. */
    logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
    shadow: z
      .strictObject({
        /**
         * Comparison records appended to this file (JSON lines), or `{file, maxBytes, keep}`: rotated past
         * maxBytes, `keep` old files kept, so a day of traffic holds (keep + 1) x maxBytes at most; without
         * it the records go to the log stream.
         */
        log: z
          .preprocess((value) => (typeof value === 'string' ? { file: value } : value), z.strictObject(rotatedFile))
          .optional(),
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
        /**
         * Re-reads a route gets at most in this gateway's life: learning is a warm-up (each is one more call
         * to the legacy upstream, as dear as the candidate's call), so past them a comparison makes one call.
         */
        learnReads: z.int().min(0).default(200),
        queueSize: z.int().min(1).max(1_000_000).default(1000),
        /** Bytes of request and answer bodies the queue may hold; what does not fit is dropped and counted. */
        queueBytes: z.int().min(1024).default(DEFAULTS.shadowQueueBytes),
        concurrency: z.int().min(1).max(256).default(4),
        /** Comparisons of answers a route needs in its window (readyWindow), none unexplained, to be ready to cut over. */
        readyAfter: z.int().min(1).default(50),
        /**
         * The window a verdict reads, up to a route's newest comparison: the report, the live page and the
         * Prometheus rules (`paybridge rules`) alike; a Prometheus duration.
         */
        readyWindow: z
          .string()
          .regex(/^\d+[smhdw]$/, 'expected a Prometheus duration such as 1h or 30m')
          .default('1h'),
        /** Name of this gateway instance in the records (default: host name and pid). */
        instance: z.string().min(1).optional(),
        /**
         * The replay corpus (off without it): translated exchanges with their current calls, secrets as
         * placeholders, for `paybridge replay`; `file` rotated past `maxBytes`, `keep` old files kept.
         */
        corpus: z.strictObject({ ...rotatedFile, sample: z.number().min(0).max(1).default(1) }).optional(),
      })
      .prefault({}),
    /** OTLP/HTTP endpoint (`http://collector:4318`) spans are exported to; off without one. */
    otlpEndpoint: url.optional(),
    /** Bearer token for /_paybridge/ (the shadow report, the route table); off without one (or operatorTokens). */
    operatorToken: z.string().min(16, 'expected at least 16 characters').optional(),
    /** The embedded sandbox (no upstream configured). */
    sandbox: z
      .strictObject({
        /**
         * Shop page origins (`https://shop.example`) allowed to call the checkout component's browser
         * endpoints (CORS) and to frame its card fields; `*`, the demo's default, allows any.
         */
        allowedOrigins: z
          .array(
            z.union([
              z.literal('*'),
              z
                .string()
                .regex(
                  /^https?:\/\/[^/\s?#]+$/,
                  'expected an origin such as https://shop.example (scheme and host, no path) or *',
                ),
            ]),
          )
          .min(1)
          .default(['*']),
      })
      .prefault({}),
    /** Named operator tokens (name -> token): the audit line of a route change names who made it. */
    operatorTokens: z
      .record(
        z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected a name of letters, digits, . _ -'),
        z.string().min(16, 'expected at least 16 characters'),
      )
      .default({}),
  })
  .transform((config) => ({
    ...config,
    timeouts: {
      ...config.timeouts,
      shutdownMs: config.timeouts.shutdownMs ?? config.timeouts.drainMs + longestRequestMs(config) + SHUTDOWN_MARGIN_MS,
    },
  }))
  .superRefine((config, ctx) => {
    if (config.timeouts.shutdownMs <= config.timeouts.drainMs + longestRequestMs(config))
      ctx.addIssue({
        code: 'custom',
        path: ['timeouts', 'shutdownMs'],
        message: `must exceed timeouts.drainMs plus the longest a request can take (client.requestMs + timeouts.requestMs: ${config.timeouts.drainMs + longestRequestMs(config)} ms in all), or a shutdown could cut off the answer to a write already sent upstream`,
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

export { commandLineSources, ConfigError, readJsonFile, SETTINGS, type ConfigSources } from './config-sources.js';

/** The one configuration: file, then environment, then flags; validated by the schema and frozen. */
export function loadConfig(sources: ConfigSources): Config {
  const parsed = configSchema.safeParse(mergeSources(sources));
  if (!parsed.success) throw new ConfigError(`${describeIssues(parsed.error)}${didYouMean(parsed.error)}`);
  return deepFreeze(parsed.data);
}

/** For an unknown key, the known key of the same object closest to it (a typo: at most two edits, or a different case). */
function didYouMean(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue?.code !== 'unrecognized_keys') return '';
  const unknown = issue.keys[0] ?? '';
  let known: unknown = configSchema.parse({});
  for (const part of issue.path) known = (known as Record<PropertyKey, unknown> | undefined)?.[part];
  if (typeof known !== 'object' || known === null) return '';
  const candidates = Object.keys(known).map(
    (key) => [key, editDistance(unknown.toLowerCase(), key.toLowerCase())] as const,
  );
  const best = candidates.sort((a, b) => a[1] - b[1])[0];
  return best && best[1] <= Math.max(2, Math.floor(unknown.length / 4))
    ? ` (did you mean ${[...issue.path, best[0]].join('.')}?)`
    : '';
}

/** Levenshtein distance of two short strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
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
