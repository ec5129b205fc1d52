import { createHmac } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';

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

/**
 * The claims of a valid HS256 JWT, or null when the signature, algorithm, claims or expiry are wrong.
 * Verified by jose (a maintained JOSE implementation), at the sandbox clock's time.
 */
export async function verifyJwt(token: string, secret: string, nowSeconds: number): Promise<JwtClaims | null> {
  if (!looksLikeJwt(token)) return null;
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      currentDate: new Date(nowSeconds * 1000),
    });
    if (typeof payload.sub !== 'string') return null;
    const kind = (payload as { kind?: unknown }).kind;
    if (kind !== 'customer' && kind !== 'merchant' && kind !== 'marketplace') return null;
    return { sub: payload.sub, kind, ...(typeof payload.exp === 'number' ? { exp: payload.exp } : {}) };
  } catch {
    return null;
  }
}

const keys = new Map<string, Uint8Array>();
const keyOf = (secret: string) => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = new TextEncoder().encode(secret)));
  return key;
};

/** The unverified `kind` claim of a JWT-shaped value, or null; for routing decisions only, never for trust. */
export function peekJwtKind(token: string): JwtKind | null {
  if (!looksLikeJwt(token)) return null;
  try {
    const kind = (decodeJwt(token) as { kind?: unknown }).kind;
    return kind === 'customer' || kind === 'merchant' || kind === 'marketplace' ? kind : null;
  } catch {
    return null;
  }
}
