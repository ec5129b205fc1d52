/**
 * The upstream client on its own (src/gateway/upstream.ts), against an origin of the test's: each
 * timeout is told apart from the request's deadline by the error it gives (the deadline set far away,
 * so which one the gateway's clock met first is not a matter of the machine's speed), an answer over
 * the size limit is refused whether it announces its length or not, an informational 1xx is not the
 * answer, and many calls in flight finishing in any order leave a hanging one still watched.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaybridgeError } from '../../src/errors.js';
import { createUpstream } from '../../src/gateway/upstream.js';

/** What the origin does, by path. */
const BEHAVIOURS: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/silent': () => undefined,
  '/stalls': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":');
  },
  '/big-announced': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' }).end(`"${'x'.repeat(1998)}"`),
  '/big-streamed': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (let i = 0; i < 20; i++) res.write('x'.repeat(100));
    res.end();
  },
  '/early-hints': (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(201, { 'content-type': 'application/json' }).end('{"created":true}');
  },
  '/chunks': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"a":');
    setImmediate(() => res.end('1}'));
  },
};

const sockets = new Set<Socket>();
const received: string[] = [];
const origin = createServer((req, res) => {
  req.resume();
  const path = new URL(req.url!, 'http://x').pathname;
  received.push(path);
  if (path.startsWith('/after/'))
    return void setTimeout(() => res.writeHead(200).end(path), Number(path.split('/')[2]));
  (BEHAVIOURS[path] ?? ((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')))(
    req,
    res,
  );
});
origin.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
let url = '';
// the headers and body timeouts 1 s (no answer on a loaded machine comes near), the request's deadline set 20 s away
const upstream = createUpstream({
  connectMs: 5_000,
  headersMs: 1_000,
  bodyMs: 1_000,
  requestMs: 20_000,
  maxResponseBytes: 1_000,
});
const far = () => Date.now() + 20_000;
const get = (path: string, deadline = far()) => upstream.exchange(url, { method: 'GET', path, headers: {} }, deadline);
const failure = (pending: Promise<unknown>) =>
  pending.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as PaybridgeError,
  );

beforeAll(async () => {
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await upstream.close(true);
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => origin.close(resolve));
});

describe('the upstream client', () => {
  it('no answer headers within headersMs is a 504 saying so, long before the deadline', async () => {
    const err = await failure(get('/silent'));
    expect(err).toBeInstanceOf(PaybridgeError);
    expect([err.code, err.detail]).toEqual(['upstream_timeout', 'the upstream sent no answer headers within 1000 ms']);
  });

  it('a body that stops coming for longer than bodyMs is a 504 saying so, long before the deadline', async () => {
    const err = await failure(get('/stalls'));
    expect([err.code, err.detail]).toEqual([
      'upstream_timeout',
      'the upstream answer body stalled for more than 1000 ms',
    ]);
  });

  it('the deadline, when it comes first, is a 504 naming it', async () => {
    const err = await failure(get('/after/5000', Date.now() + 100));
    expect([err.code, err.detail]).toEqual([
      'upstream_timeout',
      'the upstream did not answer within the request deadline (20000 ms)',
    ]);
  });

  it('a deadline already past is a 504 and nothing is sent', async () => {
    const err = await failure(get('/never-sent', Date.now() - 1));
    expect([err.code, err.detail]).toEqual([
      'upstream_timeout',
      'the upstream did not answer within the request deadline (20000 ms)',
    ]);
    // the origin has every call made after it, and never that one
    await get('/after/0');
    expect(received).not.toContain('/never-sent');
  });

  it('refuses an answer over maxResponseBytes, announced by its length or streamed without one', async () => {
    for (const path of ['/big-announced', '/big-streamed']) {
      const err = await failure(get(path));
      expect([path, err.code, err.detail]).toEqual([path, 'upstream_error', 'the upstream answer exceeds 1000 bytes']);
    }
    // a small one is read whole
    expect((await get('/after/0')).body.toString('utf8')).toBe('/after/0');
  });

  it('an informational 1xx is not the answer: the final status and body are', async () => {
    const answer = await get('/early-hints');
    expect([answer.status, answer.body.toString('utf8')]).toEqual([201, '{"created":true}']);
  });

  it('reads a body sent in pieces whole, and forwards it with the hop-by-hop headers removed', async () => {
    expect((await get('/chunks')).body.toString('utf8')).toBe('{"a":1}');
    const raw = await upstream.forward(url, { method: 'GET', path: '/chunks', headers: {} }, 'req-upstream-1');
    expect(raw).toMatchObject({ status: 200, text: '{"a":1}' });
    expect(raw.headers['transfer-encoding']).toBeUndefined();
    expect(raw.headers['content-type']).toBe('application/json');
  });

  it('many calls finishing in any order leave the calls still in flight watched: a silent one among them still times out', async () => {
    // a client of its own, whose headers timeout no burst of answers on a loaded machine comes near
    const patient = createUpstream({ connectMs: 5_000, headersMs: 3_000, bodyMs: 3_000, requestMs: 20_000 });
    try {
      const call = (path: string) => patient.exchange(url, { method: 'GET', path, headers: {} }, far());
      const silent = failure(call('/silent'));
      const quick = Array.from({ length: 20 }, (_, i) => call(`/after/${(i * 7) % 50}`));
      expect((await Promise.all(quick)).map((a) => a.status)).toEqual(Array(20).fill(200));
      const err = await silent;
      expect([err.code, err.detail]).toEqual([
        'upstream_timeout',
        'the upstream sent no answer headers within 3000 ms',
      ]);
    } finally {
      await patient.close(true);
    }
  });
});
