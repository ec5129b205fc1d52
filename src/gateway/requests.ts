/** What the gateway knows about one request: its headers, its generation, its route and mode. */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import type { CanaryKey, RouteMode } from '../config.js';
import { newRequestId } from '../contract/ids.js';
import { PaybridgeError } from '../errors.js';
import { scrub } from '../observability/redact.js';
import {
  besideAuthorization,
  isBearerForm,
  legacyCredentialHeaders,
  tooManyCredentials,
  wrongForm,
} from '../translate/credentials.js';
import type { RouteMatch } from '../translate/router.js';

/** What the gateway decided for a request, kept on the request for the handlers, logs and metrics. */
export interface Decision {
  generation: 'legacy' | 'current';
  /** The legacy route matched (legacy requests of the route table only). */
  match?: RouteMatch | undefined;
  /** Shadow or canary: this exchange is compared (the route's sample rate). */
  sampled?: boolean;
  /** Request headers by lower-case name, repeated ones as arrays (the translator counts credentials). */
  headers: Record<string, string | string[]>;
  /** Legacy route id, `current` for current-generation calls, `unmapped` for unknown legacy paths. */
  route: string;
  /** The route's mode; `passthrough` for current-generation calls and the sandbox's own paths. */
  mode: RouteMode | 'passthrough';
  /** Base URL a passthrough goes to. */
  upstream?: string;
  /** The merchant the credential belongs to, when modes are set per merchant and it is known. */
  merchant?: string;
  /** A percentage canary (`canary:N%`): the share the translation serves and what the choice sticks to; decided once the key is known. */
  canary?: { percent: number; key: CanaryKey };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type HeaderValues = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The caller's x-request-id when it is a sane id, else a fresh UUID: the tracer of every error. An id
 * that holds a secret (a card number, a key; whatever redaction would mask) is never written
 * anywhere, so it is replaced too.
 */
export function requestIdOf(headers: HeaderValues): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) && scrub(given) === given ? given : newRequestId();
}

/** A Bearer token (RFC 6750 section 2.1, b64token): one token, nothing before or after it. */
const BEARER = /^\s*Bearer +([A-Za-z0-9._~+/-]+=*)\s*$/i;
const BASIC = /^\s*Basic +([A-Za-z0-9+/=]+)\s*$/i;
/** A key of either environment: in a second place of one credential it would be a second credential. */
const KEY_PREFIX = /(?:^|[^A-Za-z0-9])(?:sandbox|live)_/;

/** A key of a documented form (current-api.md "Authentication"), nothing before or after it. */
const KEY = /^(?:sandbox|live)_(?:pk|sk|api)_[A-Za-z0-9_-]+$/;
/** A Basic user: one token, no separators. */
const BASIC_USER = /^[A-Za-z0-9._~-]+$/;

const oneCredential = (where: string) =>
  new PaybridgeError(
    'invalid_credentials',
    `${where}: a credential is one token of its form; a second value or a key beside it is not accepted`,
  );
const notOfForm = (what: string) =>
  new PaybridgeError(
    'unauthenticated',
    `Authorization: the ${what} is not a key, a JWT or a checkout token of the documented forms`,
  );

/**
 * The credential inside one Authorization value: the Bearer token, the key of Basic (`key:`), else the
 * value. A value that holds more than one token (`Bearer a b`, `Bearer a, Bearer b`, Basic
 * `sandbox_sk_...:live_sk_...`) is a 400; one token of no documented form (`Bearer sandbox_sk_a;b`,
 * an empty Bearer) a 401: the environment is chosen from one credential, and the whole header goes
 * upstream.
 */
function authorizationCredential(value: string): string {
  if (/^\s*Bearer(?:\s|$)/i.test(value)) {
    if (/^\s*Bearer\s*$/i.test(value)) throw notOfForm('Bearer value (empty)');
    const bearer = BEARER.exec(value);
    if (!bearer) throw oneCredential('Authorization');
    if (!isBearerForm(bearer[1]!)) throw notOfForm('Bearer value');
    return bearer[1]!;
  }
  if (/^\s*Basic(?:\s|$)/i.test(value)) {
    const basic = BASIC.exec(value);
    if (!basic) throw oneCredential('Authorization');
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    if (user === '' || /[\s,]/.test(user) || KEY_PREFIX.test(password)) throw oneCredential('Authorization');
    // the user picks the environment: a key of its form, or a token that is no key
    if (!BASIC_USER.test(user) || (/^(?:sandbox|live)_/.test(user) && !KEY.test(user))) throw notOfForm('Basic user');
    return user;
  }
  return value.trim();
}

/**
 * The one credential of a request, decided once, before any upstream is chosen (on every path:
 * translated, legacy mode, passthrough, the sandbox's own paths): a legacy header's value, the Bearer
 * token, or the key inside Basic; its prefix picks the environment. Two credential headers, a repeated
 * one (in any spelling), a legacy header beside Authorization, two Authorization values, or one value
 * holding more than one token are a 400 invalid_credentials: a live key never rides beside a sandbox
 * one. A value that is not one token of its header's form (legacy-api.md section 1:
 * `sandbox_sk_a;live_sk_b`, `sandbox_sk_a|b`) is a legacy 401, and nothing is sent anywhere.
 */
export function soleCredential(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const { count, first } = legacyCredentialHeaders(headers);
  const auth = headers.authorization;
  const authorizations = auth === undefined ? 0 : Array.isArray(auth) ? auth.length : 1;
  if (count > 1) throw tooManyCredentials(headers, count);
  // past the check above, a first legacy credential is the only one
  if (first !== undefined && authorizations > 0) throw besideAuthorization(first.rule);
  if (authorizations > 1)
    throw new PaybridgeError(
      'invalid_credentials',
      `Authorization: exactly one credential is allowed, got ${authorizations}`,
    );
  if (first !== undefined) {
    if (/[\s,]/.test(first.value)) throw oneCredential(first.rule.name);
    if (!first.rule.form(first.value)) throw wrongForm(first.rule);
    return first.value;
  }
  return authorizations === 0 ? undefined : authorizationCredential(Array.isArray(auth) ? auth[0]! : auth!);
}

/** Path parameters of a matched legacy route, decoded. */
export function paramsOf(match: RouteMatch): Record<string, string> {
  const out: Record<string, string> = {};
  match.compiled.params.forEach(({ name }, i) => {
    try {
      out[name] = decodeURIComponent(match.values[i]!);
    } catch {
      out[name] = match.values[i]!;
    }
  });
  return out;
}

/** The first value of a header that may list several (`a, b`), trimmed; undefined when empty. */
function first(v: string | string[] | undefined): string | undefined {
  const value = Array.isArray(v) ? v[0] : v;
  if (value === undefined) return undefined;
  const comma = value.indexOf(',');
  return (comma < 0 ? value : value.slice(0, comma)).trim() || undefined;
}
/**
 * A host as a Host or X-Forwarded-Host value may name it: a host name of RFC 1123 labels (or an IPv4
 * address), or a bracketed IPv6 address, and an optional port 1-65535. `..`, `-`, `evil.example:99999`
 * and anything with a path or a user are not hosts.
 */
function isHost(value: string): boolean {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/.exec(value);
  if (!m) return false;
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65_535)) return false;
  const host = m[1]!;
  if (host.startsWith('[')) return isIPv6(host.slice(1, -1));
  return (host.endsWith('.') ? host.slice(0, -1) : host).split('.').every((label) => HOST_LABEL.test(label));
}
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** The last host value checked and its verdict: a client sends the same Host on every request. */
let lastHost = '';
let lastHostValid = false;
const validHost = (host: string): boolean => {
  if (host !== lastHost) {
    lastHostValid = isHost(host);
    lastHost = host;
  }
  return lastHostValid;
};

/**
 * How the client reached the gateway, for the URLs an upstream builds (a 3DS redirectURL must open
 * through the gateway's own address): a TLS terminator's X-Forwarded-Proto/-Host when present (the
 * traffic handler has already dropped those of a peer that is not a trusted proxy), else the
 * connection and Host. Values that are not a scheme or a host[:port] are ignored.
 */
export function forwardedHeaders(headers: HeaderValues, req: IncomingMessage): Record<string, string> {
  const proto = first(headers['x-forwarded-proto'])?.toLowerCase();
  const out: Record<string, string> = {
    'x-forwarded-proto':
      proto === 'https' || proto === 'http'
        ? proto
        : (req.socket as { encrypted?: boolean }).encrypted
          ? 'https'
          : 'http',
  };
  // a forwarded host that is not a host name is as if absent: the connection's own Host stands
  const forwarded = first(headers['x-forwarded-host']);
  const host = forwarded !== undefined && validHost(forwarded) ? forwarded : first(headers.host);
  if (host !== undefined && validHost(host)) out['x-forwarded-host'] = host;
  return out;
}
