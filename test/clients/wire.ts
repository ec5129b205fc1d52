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
  const lines = [
    `${request.method} ${request.path} HTTP/1.1`,
    ...request.headers.map(([n, v]) => `${n}: ${v}`),
    '',
    '',
  ];
  const head = Buffer.from(lines.join('\r\n'), 'latin1');
  const payload = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body, 'utf8');
  // libcurl before 7.69 with `Expect: 100-continue`: the head alone, then the body on `100 Continue`,
  // or after a second without an answer (curl's expect timeout)
  const expectContinue =
    request.headers.some(([n, v]) => n.toLowerCase() === 'expect' && /100-continue/i.test(v)) && payload.length > 0;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error(`no answer to ${request.method} ${request.path}`)), 10_000);
    let bodySent = !expectContinue;
    const sendBody = () => {
      if (bodySent) return;
      bodySent = true;
      socket.write(payload);
    };
    let expectTimer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (!expectContinue) return socket.write(Buffer.concat([head, payload]));
      socket.write(head);
      expectTimer = setTimeout(sendBody, 1_000);
    });
    socket.on('close', () => clearTimeout(expectTimer));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      let raw = Buffer.concat(chunks);
      // an interim 1xx answer is read and dropped, as curl does
      while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (raw.subarray(9, 12).toString('latin1') === '100') {
          clearTimeout(expectTimer);
          sendBody();
        }
        raw = raw.subarray(end + 4);
        chunks = [raw];
      }
      const answer = complete(raw);
      if (answer) {
        clearTimeout(timer);
        clearTimeout(expectTimer);
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
