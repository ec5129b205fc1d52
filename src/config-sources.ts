/**
 * Where settings come from besides the schema's defaults: a JSON file, then PAYBRIDGE_* environment
 * variables, then flags (later wins); the table of flags and variables and how each lands in the
 * schema's shape.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** A configuration problem, naming the setting (`timeouts.headersMs`, `PAYBRIDGE_PORT`, `--port`). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(`invalid configuration: ${message}`);
    this.name = 'ConfigError';
  }
}

type Json = Record<string, unknown>;

/** Where the gateway listens unless a setting says otherwise (the schema's defaults; the healthcheck's too). */
export const LISTEN_DEFAULTS = { host: '127.0.0.1', port: 8080 } as const;

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
  if (!/^\d+$/.test(value))
    throw new ConfigError(`${name}: expected a non-negative integer, got ${JSON.stringify(value)}`);
  return Number(value);
};

/** `L7=shadow,*=current` or repeated flags -> {L7: 'shadow', '*': 'current'}. */
function parseModes(name: string, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0) throw new ConfigError(`${name}: expected ROUTE=MODE, got ${JSON.stringify(item)}`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** Why a file could not be read, in words (the system's code alone, ENOENT, says little to an operator). */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
};

/** Reads a JSON file of the operator's, naming the setting it came from and the file when it cannot (one line). */
export function readJsonFile(setting: string, file: string, hint = ''): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new ConfigError(
      `${setting}: ${file}: ${READ_FAILURES[code] ?? (err as Error).message}${code === 'ENOENT' ? hint : ''}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${setting}: ${file}: not JSON (${(err as Error).message})`);
  }
}

/**
 * The configuration file of `serve`: its contents, or, for a file declared optional (a Kubernetes
 * ConfigMap not created yet), undefined while it does not exist: the gateway then starts without it
 * and reads it when it appears. A required file that is missing is a one-line error naming it.
 */
function readConfigFile(file: string, optional: boolean): unknown {
  if (optional && !existsSync(file)) return undefined;
  return readJsonFile('--config', file, ' (to start without it and read it once it appears, add --config-optional)');
}

/** How each flag and environment variable lands in the schema. */
interface Setting {
  flag: string;
  env: string;
  path: string;
  kind: 'string' | 'int' | 'number' | 'file' | 'modes' | 'list';
  /** For `paybridge serve --help`: what it sets, and its default. */
  describe: string;
  default: string;
}

export const SETTINGS: readonly Setting[] = [
  {
    flag: 'host',
    env: 'PAYBRIDGE_HOST',
    path: 'listen.host',
    kind: 'string',
    describe: 'address to listen on',
    default: LISTEN_DEFAULTS.host,
  },
  {
    flag: 'port',
    env: 'PAYBRIDGE_PORT',
    path: 'listen.port',
    kind: 'int',
    describe: 'port to listen on (0: any free one)',
    default: String(LISTEN_DEFAULTS.port),
  },
  {
    flag: 'current-url',
    env: 'PAYBRIDGE_CURRENT_URL',
    path: 'upstreams.sandbox.current',
    kind: 'string',
    describe: 'current API base URL of the sandbox environment',
    default: 'the embedded sandbox',
  },
  {
    flag: 'legacy-url',
    env: 'PAYBRIDGE_LEGACY_URL',
    path: 'upstreams.sandbox.legacy',
    kind: 'string',
    describe: 'legacy API base URL of the sandbox environment',
    default: 'the embedded sandbox',
  },
  {
    flag: 'live-current-url',
    env: 'PAYBRIDGE_LIVE_CURRENT_URL',
    path: 'upstreams.live.current',
    kind: 'string',
    describe: 'current API base URL of the live environment',
    default: 'none',
  },
  {
    flag: 'live-legacy-url',
    env: 'PAYBRIDGE_LIVE_LEGACY_URL',
    path: 'upstreams.live.legacy',
    kind: 'string',
    describe: 'legacy API base URL of the live environment',
    default: 'none',
  },
  {
    flag: 'default-environment',
    env: 'PAYBRIDGE_DEFAULT_ENVIRONMENT',
    path: 'defaultEnvironment',
    kind: 'string',
    describe: 'environment of credentials without a sandbox_/live_ prefix (sandbox, live)',
    default: 'the configured one',
  },
  {
    flag: 'merchant-tokens',
    env: 'PAYBRIDGE_MERCHANT_TOKENS',
    path: 'merchantTokens',
    kind: 'file',
    describe: 'JSON file: legacy merchant token -> mcht_ id',
    default: 'none',
  },
  {
    flag: 'service-key',
    env: 'PAYBRIDGE_SERVICE_KEY',
    path: 'serviceKey',
    kind: 'string',
    describe: "marketplace API key the gateway reads merchants' public keys with",
    default: 'none',
  },
  {
    flag: 'mode',
    env: 'PAYBRIDGE_MODE',
    path: 'routes',
    kind: 'modes',
    describe:
      'ROUTE=MODE, repeatable: current, legacy, shadow, canary or canary:N% per route id or * (not beside --config: the file sets the routes)',
    default: '*=current',
  },
  {
    flag: 'unmapped-routes',
    env: 'PAYBRIDGE_UNMAPPED_ROUTES',
    path: 'unmappedRoutes',
    kind: 'string',
    describe: 'a path outside the route table: reject (404) or legacy (pass through)',
    default: 'reject',
  },
  {
    flag: 'connect-timeout-ms',
    env: 'PAYBRIDGE_CONNECT_TIMEOUT_MS',
    path: 'timeouts.connectMs',
    kind: 'int',
    describe: 'upstream connect timeout',
    default: '2000',
  },
  {
    flag: 'headers-timeout-ms',
    env: 'PAYBRIDGE_HEADERS_TIMEOUT_MS',
    path: 'timeouts.headersMs',
    kind: 'int',
    describe: 'upstream headers timeout',
    default: '15000',
  },
  {
    flag: 'body-timeout-ms',
    env: 'PAYBRIDGE_BODY_TIMEOUT_MS',
    path: 'timeouts.bodyMs',
    kind: 'int',
    describe: 'upstream gap between body chunks',
    default: '15000',
  },
  {
    flag: 'request-timeout-ms',
    env: 'PAYBRIDGE_REQUEST_TIMEOUT_MS',
    path: 'timeouts.requestMs',
    kind: 'int',
    describe: 'one deadline per request, every upstream call of it included',
    default: '30000',
  },
  {
    flag: 'drain-ms',
    env: 'PAYBRIDGE_DRAIN_MS',
    path: 'timeouts.drainMs',
    kind: 'int',
    describe: 'after SIGTERM, serve this long with /readyz answering 503 before closing the listener',
    default: '0',
  },
  {
    flag: 'shutdown-timeout-ms',
    env: 'PAYBRIDGE_SHUTDOWN_TIMEOUT_MS',
    path: 'timeouts.shutdownMs',
    kind: 'int',
    describe: 'how long SIGTERM waits for draining, in-flight requests and queued comparisons',
    default: 'drain + client + request timeouts + 5000',
  },
  {
    flag: 'client-headers-timeout-ms',
    env: 'PAYBRIDGE_CLIENT_HEADERS_TIMEOUT_MS',
    path: 'client.headersMs',
    kind: 'int',
    describe: "a client's headers must arrive within this (else a legacy 408)",
    default: '10000',
  },
  {
    flag: 'client-request-timeout-ms',
    env: 'PAYBRIDGE_CLIENT_REQUEST_TIMEOUT_MS',
    path: 'client.requestMs',
    kind: 'int',
    describe: "a client's whole request must arrive within this (else a legacy 408)",
    default: '30000',
  },
  {
    flag: 'max-connections',
    env: 'PAYBRIDGE_MAX_CONNECTIONS',
    path: 'client.maxConnections',
    kind: 'int',
    describe: 'client connections at most',
    default: '10000',
  },
  {
    flag: 'body-limit',
    env: 'PAYBRIDGE_BODY_LIMIT',
    path: 'bodyLimitBytes',
    kind: 'int',
    describe: 'largest request body in bytes (413 beyond)',
    default: '1048576',
  },
  {
    flag: 'log-level',
    env: 'PAYBRIDGE_LOG_LEVEL',
    path: 'logLevel',
    kind: 'string',
    describe: 'fatal, error, warn, info, debug, trace or silent',
    default: 'info',
  },
  {
    flag: 'log-format',
    env: 'PAYBRIDGE_LOG_FORMAT',
    path: 'logFormat',
    kind: 'string',
    describe: 'json, pretty (lines a person reads) or auto (pretty on a terminal)',
    default: 'auto',
  },
  {
    flag: 'shadow-log',
    env: 'PAYBRIDGE_SHADOW_LOG',
    path: 'shadow.log.file',
    kind: 'string',
    describe: 'file the shadow comparison records are appended to (JSON lines; rotated past 64 MiB, 3 old files kept)',
    default: 'the log stream',
  },
  {
    flag: 'shadow-sample',
    env: 'PAYBRIDGE_SHADOW_SAMPLE',
    path: 'shadow.sample.*',
    kind: 'number',
    describe: 'share of requests compared in shadow and canary modes, 0-1 (not beside --config)',
    default: '1',
  },
  {
    flag: 'otlp-endpoint',
    env: 'PAYBRIDGE_OTLP_ENDPOINT',
    path: 'otlpEndpoint',
    kind: 'string',
    describe: 'OTLP/HTTP endpoint OpenTelemetry spans are exported to (http://collector:4318)',
    default: 'none: tracing off',
  },
  {
    flag: 'allowed-origins',
    env: 'PAYBRIDGE_ALLOWED_ORIGINS',
    path: 'sandbox.allowedOrigins',
    kind: 'list',
    describe: "shop page origins the embedded sandbox's checkout component serves (CORS, framing), comma-separated",
    default: '*',
  },
  {
    flag: 'trusted-proxies',
    env: 'PAYBRIDGE_TRUSTED_PROXIES',
    path: 'trustedProxies',
    kind: 'list',
    describe: 'addresses or CIDR ranges of the proxies whose X-Forwarded-Host/-Proto are believed, comma-separated',
    default: 'none: ignored',
  },
  {
    flag: 'operator-token',
    env: 'PAYBRIDGE_OPERATOR_TOKEN',
    path: 'operatorToken',
    kind: 'string',
    describe: 'bearer token of /_paybridge/ (the shadow report), 16+ characters',
    default: 'none: report off',
  },
];

/** PAYBRIDGE_* variables that are not settings but choose how settings are read. */
const NON_SETTING_ENV = new Set(['PAYBRIDGE_CONFIG', 'PAYBRIDGE_CONFIG_OPTIONAL']);

/**
 * Settings of the route table (modes, sample rates): with a configuration file they are the file's
 * alone. A reload reads the file again and applies its table; a flag or variable laid over it would
 * win at every reload, silently, whatever the file then says.
 */
const ROUTE_TABLE_PATHS = new Set(['routes', 'shadow.sample.*']);

/**
 * Kubernetes service links: for every Service in the namespace (one named `paybridge` or
 * `paybridge-*` included) each pod gets `<NAME>_SERVICE_HOST`, `<NAME>_SERVICE_PORT[_<PORT NAME>]`,
 * `<NAME>_PORT=tcp://...` and `<NAME>_PORT_<n>_<PROTO>[_PROTO|_PORT|_ADDR]`. They are no settings
 * of ours and would otherwise stop start-up as unknown (pods crash-looping once the Service exists).
 */
const SERVICE_LINK =
  /^PAYBRIDGE(?:_[A-Z0-9_]+)?_(?:SERVICE_HOST|SERVICE_PORT(?:_[A-Z0-9_]+)?|PORT_\d+_(?:TCP|UDP|SCTP)(?:_(?:PROTO|PORT|ADDR))?)$/;
const SERVICE_LINK_URL = /^(?:tcp|udp|sctp):\/\/[^\s]+:\d+$/;

/** Whether a PAYBRIDGE_* variable is a Kubernetes service link rather than a setting. */
function isServiceLink(name: string, value: string): boolean {
  if (SETTINGS.some((s) => s.env === name)) return name.endsWith('_PORT') && SERVICE_LINK_URL.test(value);
  return SERVICE_LINK.test(name) || (name.endsWith('_PORT') && SERVICE_LINK_URL.test(value));
}

export interface ConfigSources {
  /** Contents of --config (already read), or undefined (none, or an optional one not there yet). */
  file?: unknown;
  /** The configuration file's name: with one, the route table is set in the file only. */
  fileName?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Flag values by flag name (without --); `mode` may repeat. */
  flags?: Readonly<Record<string, string | string[] | undefined>>;
}

function apply(
  target: Json,
  setting: Setting,
  name: string,
  raw: string | readonly string[],
  fileName: string | undefined,
): void {
  if (fileName !== undefined && ROUTE_TABLE_PATHS.has(setting.path))
    throw new ConfigError(
      `${name}: the route table (modes, sample rates) of a gateway with a configuration file is set in that file (${fileName}), which a reload reads again; set it there, or run without --config`,
    );
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
    case 'list':
      return setPath(
        target,
        setting.path,
        values
          .flatMap((v) => v.split(','))
          .map((v) => v.trim())
          .filter((v) => v !== ''),
      );
    case 'modes': {
      const existing = (target.routes ?? {}) as Json;
      return setPath(target, setting.path, { ...existing, ...parseModes(name, values) });
    }
    default:
      return setPath(target, setting.path, last);
  }
}

/** The file's object with the environment's, then the flags', settings laid over it (not yet validated). */
export function mergeSources(sources: ConfigSources): Json {
  const merged: Json = structuredClone((sources.file ?? {}) as Json);
  if (typeof merged !== 'object' || merged === null || Array.isArray(merged))
    throw new ConfigError(`${sources.fileName ?? 'config file'}: expected a JSON object`);
  const env = sources.env ?? {};
  for (const name of Object.keys(env)) {
    if (
      !name.startsWith('PAYBRIDGE_') ||
      NON_SETTING_ENV.has(name) ||
      env[name] === undefined ||
      isServiceLink(name, env[name])
    )
      continue;
    const setting = SETTINGS.find((s) => s.env === name);
    if (!setting) throw new ConfigError(`${name}: unknown setting (known: ${SETTINGS.map((s) => s.env).join(', ')})`);
    apply(merged, setting, name, env[name], sources.fileName);
  }
  for (const [flag, value] of Object.entries(sources.flags ?? {})) {
    if (value === undefined) continue;
    const setting = SETTINGS.find((s) => s.flag === flag);
    if (!setting) throw new ConfigError(`--${flag}: unknown option`);
    apply(merged, setting, `--${flag}`, value, sources.fileName);
  }
  return merged;
}

/**
 * The sources of `paybridge serve [--config FILE] [flags]` (and of the healthcheck, which takes the
 * same command line): the file named by --config or PAYBRIDGE_CONFIG, read now, the environment, the
 * flags. An unknown or malformed flag is node:util's usage error, naming it.
 */
export function commandLineSources(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ConfigSources & { fileName?: string; optional: boolean } {
  const options = Object.fromEntries(
    SETTINGS.map((s) => [
      s.flag,
      s.kind === 'modes' || s.kind === 'list'
        ? { type: 'string' as const, multiple: true }
        : { type: 'string' as const },
    ]),
  );
  const { values } = parseArgs({
    args: [...argv],
    options: { ...options, config: { type: 'string' }, 'config-optional': { type: 'boolean' } },
    strict: true,
  });
  const {
    config: configFile,
    'config-optional': optionalFlag,
    ...flags
  } = values as Record<string, string | string[] | boolean | undefined>;
  const fileName = (configFile as string | undefined) ?? env.PAYBRIDGE_CONFIG;
  const optional = optionalFlag === true || isTrue('PAYBRIDGE_CONFIG_OPTIONAL', env.PAYBRIDGE_CONFIG_OPTIONAL);
  if (optional && !fileName)
    throw new ConfigError('--config-optional: name the file with --config FILE (or PAYBRIDGE_CONFIG)');
  const file = fileName ? readConfigFile(fileName, optional) : undefined;
  return {
    ...(fileName ? { fileName } : {}),
    ...(file !== undefined ? { file } : {}),
    env,
    flags: flags as Record<string, string | string[] | undefined>,
    optional,
  };
}

/** A yes/no variable: `true` or `1` (anything else but `false`, `0` or empty is a mistake, named). */
function isTrue(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`${name}: expected true or false, got ${JSON.stringify(value)}`);
}
