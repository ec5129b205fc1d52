/**
 * The upstream client on its own (src/gateway/upstream.ts), against an origin of the test's: each
 * timeout is told apart from the request's deadline by the error it gives (the deadline set far away,
 * so which one the gateway's clock met first is not a matter of the machine's speed), an answer over
 * the size limit is refused whether it announces its length or not, an informational 1xx is not the
 * answer, and many calls in flight finishing in any order leave a hanging one still watched.
 * Also: an answer of exactly the limit is read, one announced over it is refused on the announcement;
 * headersMs and bodyMs each count from the right moment (an informational 1xx starts no body, a body
 * that keeps coming is never cut); a GET reset or closed before its answer is sent once more and a POST
 * never; a base URL's path prefix is kept; the calls in flight are counted; close() lets them finish
 * and closes every connection.
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
  // announces more than the limit, sends a little and stalls: refused on the announcement, not left to stall
  '/big-announced-stalls': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
    res.write('"xxxxxxxx');
  },
  '/limit-announced': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' }).end(`"${'x'.repeat(998)}"`),
  '/limit-streamed': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (let i = 0; i < 10; i++) res.write('x'.repeat(100));
    res.end();
  },
  // the final answer comes well after an informational one
  '/early-hints-slow': (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    setTimeout(() => res.writeHead(201, { 'content-type': 'application/json' }).end('{"late":true}'), 1_200);
  },
  // a body that keeps coming, a piece every 150 ms for 1.2 s
  '/trickle': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const timer = setInterval(() => {
      if (++sent < 8) return void res.write(' ');
      clearInterval(timer);
      res.end('{"trickled":true}');
    }, 150);
  },
  // headers after 1.2 s, the body 300 ms after them
  '/late-headers': (_req, res) =>
    void setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
      setTimeout(() => res.end('{"late":"headers"}'), 300);
    }, 1_200),
  // the connection reset (RST) or closed (FIN) before an answer, the first time only
  '/reset-once': (req, res) => {
    if (once('/reset-once')) return void req.socket.resetAndDestroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"second":"reset"}');
  },
  '/closed-once': (req, res) => {
    if (once('/closed-once')) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"second":"closed"}');
  },
  '/post-reset': (req) => void req.socket.resetAndDestroy(),
  '/chunks': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"a":');
    setImmediate(() => res.end('1}'));
  },
};

const sockets = new Set<Socket>();
const received: string[] = [];
/** Whether this is the first request for `path`. */
const once = (path: string) => received.filter((p) => p === path).length === 1;
const origin = createServer((req, res) => {
  req.resume();
  const path = new URL(req.url!, 'http://x').pathname;
  received.push(path);
  if (path.startsWith('/api/')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(`"${path}"`);
  if (path.startsWith('/after/'))
    return void setTimeout(() => res.writeHead(200).end(path), Number(path.split('/')[2]));
  (BEHAVIOURS[path] ?? ((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')))(
    req,
    res,
  );
});
// idle connections are closed by the client only (Node's 5 s default would close a leaked one for it)
origin.keepAliveTimeout = 120_000;
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

  it('refuses an answer announcing more than maxResponseBytes on its announcement, without waiting for the body', async () => {
    const err = await failure(get('/big-announced-stalls'));
    expect([err.code, err.detail]).toEqual(['upstream_error', 'the upstream answer exceeds 1000 bytes']);
  });

  it('reads an answer of exactly maxResponseBytes, announced or streamed', async () => {
    expect((await get('/limit-announced')).body.length).toBe(1_000);
    expect((await get('/limit-streamed')).body.length).toBe(1_000);
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

  it('a call whose deadline is now is not sent', async () => {
    const err = await failure(get('/never-sent-now', Date.now()));
    expect(err.code).toBe('upstream_timeout');
    await get('/after/0');
    expect(received).not.toContain('/never-sent-now');
  });

  it('a current call made without a deadline has requestMs from now', async () => {
    const answer = await upstream.call(url, { method: 'GET', path: '/after/0', headers: {} }, 'req-no-deadline');
    expect(answer).toEqual({ status: 200, body: '/after/0' });
  });

  it('a GET whose connection was reset (RST) or closed (FIN) before an answer is sent once more; a POST never', async () => {
    expect((await get('/reset-once')).body.toString('utf8')).toBe('{"second":"reset"}');
    expect((await get('/closed-once')).body.toString('utf8')).toBe('{"second":"closed"}');
    const post = await failure(
      upstream.exchange(url, { method: 'POST', path: '/post-reset', headers: {}, body: '{}' }, far()),
    );
    expect(post.code).toBe('upstream_error');
    expect(received.filter((p) => p === '/reset-once' || p === '/closed-once' || p === '/post-reset')).toEqual([
      '/reset-once',
      '/reset-once',
      '/closed-once',
      '/closed-once',
      '/post-reset',
    ]);
  });

  it("keeps a base URL's path before every call's, its trailing slashes dropped", async () => {
    for (const base of [`${url}/api`, `${url}/api/`, `${url}/api//`])
      expect(
        (await upstream.exchange(base, { method: 'GET', path: '/orders', headers: {} }, far())).body.toString(),
      ).toBe('"/api/orders"');
  });

  describe('with headers and body timeouts told apart', () => {
    // headers may take 3 s, a body may pause 500 ms; the deadline is 20 s away
    const patient = createUpstream({
      connectMs: 5_000,
      headersMs: 3_000,
      bodyMs: 500,
      requestMs: 20_000,
      connections: 1,
    });
    const call = (path: string) => patient.exchange(url, { method: 'GET', path, headers: {} }, far());
    afterAll(() => patient.close(true));

    it('an informational 1xx starts no body: the final answer may come later than bodyMs', async () => {
      const answer = await call('/early-hints-slow');
      expect([answer.status, answer.body.toString('utf8')]).toEqual([201, '{"late":true}']);
    });

    it('a body that keeps coming is read whole however long it takes, each pause under bodyMs', async () => {
      expect((await call('/trickle')).body.toString('utf8').trim()).toBe('{"trickled":true}');
    });

    it("bodyMs counts from the answer's headers, not from when the call was sent", async () => {
      expect((await call('/late-headers')).body.toString('utf8')).toBe('{"late":"headers"}');
    });
  });

  it('counts the calls in flight: one while an answer is awaited, none once every call ended, however they ended', async () => {
    const own = createUpstream({ connectMs: 5_000, headersMs: 3_000, bodyMs: 3_000, requestMs: 20_000 });
    try {
      const call = (path: string) => own.exchange(url, { method: 'GET', path, headers: {} }, far());
      expect(own.inFlight()).toBe(0);
      const slow = call('/after/300');
      expect(own.inFlight()).toBe(1);
      const failed = failure(
        own.exchange(url, { method: 'POST', path: '/post-reset', headers: {}, body: '{}' }, far()),
      );
      const quick = call('/after/0');
      expect(own.inFlight()).toBe(3);
      await Promise.all([slow, failed, quick]);
      expect(own.inFlight()).toBe(0);
      await failure(call('/silent'));
      expect(own.inFlight()).toBe(0);
    } finally {
      await own.close(true);
    }
  });

  it('a silent call made first is still watched once a call made after it was answered', async () => {
    const own = createUpstream({ connectMs: 5_000, headersMs: 1_000, bodyMs: 1_000, requestMs: 20_000 });
    try {
      const silent = failure(own.exchange(url, { method: 'GET', path: '/silent', headers: {} }, far()));
      await own.exchange(url, { method: 'GET', path: '/after/0', headers: {} }, far());
      expect((await silent).detail).toBe('the upstream sent no answer headers within 1000 ms');
    } finally {
      await own.close(true);
    }
  });

  it('close() lets the calls in flight finish, then closes every connection of every base URL', async () => {
    const own = createUpstream({ connectMs: 5_000, headersMs: 3_000, bodyMs: 3_000, requestMs: 20_000 });
    const before = new Set(sockets);
    const opened = new Promise<void>((resolve) => origin.once('connection', () => resolve()));
    await own.exchange(`${url}/api`, { method: 'GET', path: '/x', headers: {} }, far());
    const inFlight = own.exchange(url, { method: 'GET', path: '/after/300', headers: {} }, far());
    await opened;
    const mine = [...sockets].filter((s) => !before.has(s));
    expect(mine.length).toBeGreaterThan(0);
    const closed = Promise.all(mine.map((s) => new Promise((resolve) => s.once('close', resolve))));
    await own.close();
    expect((await inFlight).status).toBe(200);
    await closed;
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
