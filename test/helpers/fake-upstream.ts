import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Behaviour =
  | 'ok'
  | 'reset'
  | 'resetOnce'
  | 'hang'
  | 'error500'
  | 'error503'
  | 'html'
  | 'malformed'
  | 'trickle'
  | 'resetMidBody'
  | 'bodyHang';

/**
 * A fake current API that misbehaves on demand and counts what reached it, per "METHOD path".
 * `ok` answers like the current API would for an order or transaction read.
 */
/** The order every ok answer is: what each published form of a current order carries (current-api.md's fields and its state). */
const ORDER = {
  orderId: 'ordr_1',
  merchantId: 'mcht_solo',
  referenceOrderId: 'fake-1',
  amount: { minorCurrencyUnits: 1, currency: 'AUD' },
  status: 'created',
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
};

export async function startFakeUpstream(initial: Behaviour = 'ok') {
  let behaviour: Behaviour = initial;
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const key = `${req.method} ${req.url}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    req.resume();
    switch (behaviour) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'resetOnce':
        // the first request's connection is reset; the following ones are answered
        behaviour = 'ok';
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'error500':
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ statusCode: 500, errorCode: 'internal_error', message: 'boom', detail: 'x', tracer: 't' }),
          );
        return;
      case 'error503':
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(
          JSON.stringify({
            statusCode: 503,
            errorCode: 'service_unavailable',
            message: 'down',
            detail: 'x',
            tracer: 't',
          }),
        );
        return;
      case 'bodyHang':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('{"purchaseDetails":');
        return;
      case 'html':
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"purchaseDetails": {');
        return;
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'resetMidBody':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"purchaseDetails":');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      default:
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ OnlineOrder: { order: ORDER } }));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    counts,
    count: (key: string) => counts.get(key) ?? 0,
    set(next: Behaviour) {
      behaviour = next;
      counts.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A current API that answers every request after `delayMs`, counting them. */
export async function startSlowUpstream(delayMs: number) {
  const fake = await startFakeUpstream('hang');
  const server = createServer((req, res) => {
    fake.counts.set(`${req.method} ${req.url}`, (fake.counts.get(`${req.method} ${req.url}`) ?? 0) + 1);
    req.resume();
    setTimeout(
      () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            PayOrderComplete: {
              transactionId: 'tran_1',
              transactionStatus: 'paid',
              amount: 100,
              currency: 'AUD',
              surchargeAmount: 0,
              payType: 'payinfull',
              type: 'payinfull',
            },
          }),
        ),
      delayMs,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await fake.close();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts: fake.counts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
