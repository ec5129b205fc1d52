import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtKind = 'customer' | 'merchant' | 'marketplace';

export interface JwtClaims {
  sub: string;
  kind: JwtKind;
  exp?: number;
}

const JWT_FORM = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** True when the value has the three-part form of a JWT (no signature check). */
export function looksLikeJwt(value: string): boolean {
  return JWT_FORM.test(value);
}

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** An HS256 JWT with claims sub and kind, as the sandbox verifies them. */
export function signJwt(claims: JwtClaims, secret: string): string {
  const head = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** The claims of a valid HS256 JWT, or null when the signature, algorithm, claims or expiry are wrong. */
export function verifyJwt(token: string, secret: string, nowSeconds: number): JwtClaims | null {
  if (!looksLikeJwt(token)) return null;
  const [head, body, sig] = token.split('.') as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof claims.sub !== 'string') return null;
    if (claims.kind !== 'customer' && claims.kind !== 'merchant' && claims.kind !== 'marketplace') return null;
    if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)) return null;
    return { sub: claims.sub, kind: claims.kind, ...(typeof claims.exp === 'number' ? { exp: claims.exp } : {}) };
  } catch {
    return null;
  }
}

/** The unverified `kind` claim of a JWT-shaped value, or null; for routing decisions only, never for trust. */
export function peekJwtKind(token: string): JwtKind | null {
  if (!looksLikeJwt(token)) return null;
  try {
    const body = token.slice(token.indexOf('.') + 1, token.lastIndexOf('.'));
    const kind = (JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { kind?: unknown }).kind;
    return kind === 'customer' || kind === 'merchant' || kind === 'marketplace' ? kind : null;
  } catch {
    return null;
  }
}
