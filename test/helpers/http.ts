/** A small JSON client over global fetch, for tests that speak real HTTP to servers on port 0. */
export interface JsonResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is (for malformed JSON tests); overrides body. */
  raw?: string;
}

export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await res.text();
  let body: any = undefined;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body, text, headers: res.headers };
}

/** A client bound to a base URL and default headers. */
export function client(base: string, defaults: Record<string, string> = {}) {
  const go = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call<T>(base, method, path, { headers: { ...defaults, ...headers }, ...(body !== undefined ? { body } : {}) });
  return {
    base,
    get: <T = any>(path: string, headers?: Record<string, string>) => go<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      go<T>('POST', path, body, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => go<T>('PUT', path, body, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) =>
      go<T>('PATCH', path, body, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) => go<T>('DELETE', path, undefined, headers),
    raw: (method: string, path: string, options: CallOptions) =>
      call(base, method, path, { ...options, headers: { ...defaults, ...options.headers } }),
  };
}

export type Client = ReturnType<typeof client>;
