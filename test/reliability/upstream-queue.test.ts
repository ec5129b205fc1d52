/**
 * A call that waits for an upstream connection past its request's deadline is answered 504 and is
 * never written afterwards, when a connection frees up: a write that the client was told timed out
 * must not reach the upstream late.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PaybridgeError } from '../../src/errors.js';
import { createUpstream } from '../../src/gateway/upstream.js';

const received: string[] = [];
/** Answers the held call (the first one holds the only connection until the test lets it go). */
let release: () => void = () => undefined;
const origin = createServer((req, res) => {
  received.push(`${req.method} ${req.url}`);
  req.resume();
  const answer = () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
  if (req.url === '/orders/slow') release = answer;
  else answer();
});
let url = '';
const upstream = createUpstream({ connectMs: 500, headersMs: 2_000, bodyMs: 2_000, requestMs: 2_000, connections: 1 });

beforeAll(async () => {
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await upstream.close();
  await new Promise((resolve) => origin.close(resolve));
});

it('answers a call still queued at its deadline 504 and never sends it once a connection frees up', async () => {
  const post = (path: string) => ({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: '{"amount":100}',
  });
  const slow = upstream.exchange(url, post('/orders/slow'), Date.now() + 10_000);
  let slowAnswered = false;
  void slow.then(() => (slowAnswered = true));
  // the slow call is on the wire (the origin has it) before the second one is dispatched
  await vi.waitFor(() => expect(received).toEqual(['POST /orders/slow']));
  const queued = upstream.exchange(url, post('/orders/queued'), Date.now() + 100);
  const error = await queued.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(PaybridgeError);
  expect((error as PaybridgeError).code).toBe('upstream_timeout');
  // answered at its deadline, while the only connection was still held: not when it came free
  expect(slowAnswered).toBe(false);

  release();
  expect((await slow).status).toBe(201);
  // the connection is free again: the pool writes its queue in order, so a call made now comes after the
  // queued one, had that one been kept
  expect((await upstream.exchange(url, post('/orders/next'), Date.now() + 2_000)).status).toBe(201);
  expect(received).toEqual(['POST /orders/slow', 'POST /orders/next']);
});

it('rejects a call that fails as it starts (an unusable base URL) instead of throwing', async () => {
  let sent: Promise<unknown> | undefined;
  expect(
    () =>
      (sent = upstream.exchange('not a url', { method: 'GET', path: '/orders/x', headers: {} }, Date.now() + 1_000)),
  ).not.toThrow();
  const error = await sent!.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TypeError);
  expect(received).not.toContain('GET /orders/x');
});
