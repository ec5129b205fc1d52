/**
 * Requests written byte for byte as a deployed client's HTTP stack puts them on the wire (header
 * lines in its order and spelling, WordPress's `0:`/`1:` lines included), over a plain TCP socket,
 * and the answer read back as that client reads it: status code and JSON body.
 */
import { connect } from 'node:net';

export interface WireRequest {
  method: string;
  path: string;
  /** Header lines as [name, value], in the order the stack writes them; Host and Content-Length are added where the stack adds them. */
  headers: [string, string][];
  /** The body text exactly as the client's serializer wrote it. */
  body?: string;
}

export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as JSON (as PHP's json_decode or .NET's serializer reads it), or undefined when it is not JSON. */
  json: any;
}

/** Sends one request on a fresh connection and reads the whole answer. */
export function send(base: string, request: WireRequest): Promise<WireAnswer> {
  const url = new URL(base);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, ...request.headers.map(([n, v]) => `${n}: ${v}`), '', ''];
  const head = Buffer.from(lines.join('\r\n'), 'latin1');
  const payload = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer to ${request.method} ${request.path}`)), 10_000);
    socket.on('connect', () => socket.write(Buffer.concat([head, payload])));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const answer = complete(Buffer.concat(chunks));
      if (answer) {
        clearTimeout(timer);
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The answer once all of it arrived (Content-Length or chunked), else null. */
function complete(raw: Buffer): WireAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const status = Number(statusLine!.split(' ')[1]);
  let rest = raw.subarray(end + 4);
  let body: Buffer;
  if (headers['transfer-encoding']?.includes('chunked')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  } else {
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < length) return null;
    body = rest.subarray(0, length);
  }
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/** The `Host` value a stack writes for a base URL. */
export const hostOf = (base: string) => new URL(base).host;
