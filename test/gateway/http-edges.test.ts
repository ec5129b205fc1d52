/**
 * HTTP as clients and attackers put it on the wire, on every path (translated, `legacy` mode, shadow,
 * current passthrough): `Expect: 100-continue` answered and never forwarded, header names that are
 * Object.prototype's, a `Connection`-named header, a forged X-Forwarded-Host, a body on a route that
 * takes none, request targets an upstream would read otherwise (absolute form, dot segments),
 * `OPTIONS *`, and a client that gives up mid-body. Each answered in the legacy shape, nothing
 * forwarded that should not be, nothing written at error level.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSink, startGateway } from '../helpers/gateway.js';
import { KEYS } from '../helpers/sandbox.js';
import { readableAnswer } from '../helpers/samples.js';

interface Seen {
  method: string;
  url: string;
  lines: [string, string][];
  body: string;
}

/** An origin that keeps every request whole (raw header lines, body) and answers 200 with a JSON object a translated read can map back. */
async function origin() {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const lines: [string, string][] = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
        seen.push({ method: req.method!, url: req.url!, lines, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end(readableAnswer(req.method, req.url));
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

interface Raw {
  status: number;
  head: string;
  body: string;
}

/**
 * One request written byte for byte on its own connection (`Connection: close`). With `Expect:
 * 100-continue` the body waits for the interim 100 (or a second, as libcurl does); `cut` sends that
 * many body bytes and then closes the connection.
 */
function raw(
  base: string,
  target: string,
  method: string,
  headers: [string, string][],
  body = '',
  cut?: number,
): Promise<Raw> {
  const { hostname, port } = new URL(base);
  const payload = Buffer.from(body, 'utf8');
  const expectContinue = headers.some(([n, v]) => n.toLowerCase() === 'expect' && v === '100-continue');
  let head = `${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n`;
  for (const [n, v] of headers) head += `${n}: ${v}\r\n`;
  if (body !== '' || cut !== undefined) head += `Content-Length: ${payload.length}\r\n`;
  return new Promise((resolve, reject) => {
    let text = '';
    let sent = false;
    const socket = connect(Number(port), hostname, () => {
      if (cut !== undefined) {
        socket.write(`${head}\r\n`);
        socket.write(payload.subarray(0, cut));
        setTimeout(() => socket.destroy(), 100);
      } else if (expectContinue) {
        socket.write(`${head}\r\n`);
        setTimeout(() => !sent && ((sent = true), socket.write(payload)), 1_000);
      } else socket.write(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]));
    });
    socket.setEncoding('latin1').on('data', (d: string) => {
      text += d;
      if (expectContinue && !sent && text.startsWith('HTTP/1.1 100')) {
        sent = true;
        socket.write(payload);
      }
    });
    socket.on('error', (err) => (cut === undefined ? reject(err) : undefined));
    socket.on('close', () => {
      const final = text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const end = final.indexOf('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(final)?.[1] ?? 0),
        head: final.slice(0, end),
        body: final.slice(end + 4),
      });
    });
  });
}

const json = (r: Raw) => JSON.parse(r.body) as Record<string, unknown>;
const valuesOf = (s: Seen | undefined, name: string) => (s?.lines ?? []).filter(([n]) => n === name).map(([, v]) => v);

/** A legacy L1 body of about 1.2 KB, as Magento's cURL sends a cart (with Expect: 100-continue above 1 KiB). */
const bigOrder = JSON.stringify({
  internalOrderId: '000000777',
  paymentAmount: { amount: 21500, currency: 'AUD' },
  description: '5 item(s)',
  items: Array.from({ length: 5 }, (_, i) => ({
    description: `Product ${i} with a long enough name`,
    sku: `24-MB0${i}`,
    amount: 4300,
    currency: 'AUD',
    quantity: '1.0000',
    imageUrl: `https://magento.example/media/catalog/product/cache/1/small_image/mb0${i}.jpg`,
  })),
  billing: {
    address: { city: 'Melbourne', country: 'AU', line1: '12 Collins St', postalCode: '3000', state: 'Victoria' },
    name: 'Sam Citizen',
  },
});

let current: Awaited<ReturnType<typeof origin>>;
let legacy: Awaited<ReturnType<typeof origin>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
let shadowGw: Awaited<ReturnType<typeof startGateway>>;
/** Behind a trusted proxy: this machine's test client stands in for the TLS terminator. */
let trustedGw: Awaited<ReturnType<typeof startGateway>>;
const sink = logSink();
const shadowSink = logSink();
beforeAll(async () => {
  current = await origin();
  legacy = await origin();
  const upstreams = { sandbox: { current: current.url, legacy: legacy.url } };
  gw = await startGateway({ upstreams, routes: { L1: 'legacy', L3: 'legacy', '*': 'current' } }, sink.stream);
  shadowGw = await startGateway(
    { upstreams, routes: { '*': 'shadow' }, shadow: { sample: { '*': 1 } } },
    shadowSink.stream,
  );
  trustedGw = await startGateway({
    upstreams,
    routes: { L3: 'legacy', L17: 'shadow', '*': 'current' },
    trustedProxies: ['127.0.0.1', '::1'],
  });
});
afterAll(async () => {
  await gw.close();
  await shadowGw.close();
  await trustedGw.close();
  await current.close();
  await legacy.close();
});

const upstreamErrors = async (url: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('paybridge_upstream_errors_total{'))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
};

describe('Expect: 100-continue (libcurl before 7.69, bodies over 1 KiB)', () => {
  it('is answered with 100 Continue and never forwarded: legacy mode, shadow primary and a current passthrough each deliver the whole body', async () => {
    expect(Buffer.byteLength(bigOrder)).toBeGreaterThan(1024);
    const expectLine: [string, string] = ['Expect', '100-continue'];
    const cases = [
      {
        name: 'legacy mode',
        base: () => gw.url,
        credential: ['Limepay-SecretKey', KEYS.soloSk] as [string, string],
        upstream: () => legacy,
      },
      {
        name: 'shadow primary',
        base: () => shadowGw.url,
        credential: ['Limepay-SecretKey', KEYS.soloSk] as [string, string],
        upstream: () => legacy,
      },
      {
        name: 'current passthrough',
        base: () => gw.url,
        credential: ['Authorization', `Bearer ${KEYS.soloSk}`] as [string, string],
        upstream: () => current,
      },
    ];
    for (const c of cases) {
      const before = c.upstream().seen.length;
      const answer = await raw(
        c.base(),
        '/orders',
        'POST',
        [['Content-Type', 'application/json'], c.credential, expectLine],
        bigOrder,
      );
      expect(answer.status, `${c.name}: ${answer.body}`).toBe(200);
      const reached = c
        .upstream()
        .seen.slice(before)
        .find((s) => s.url === '/orders' && s.method === 'POST');
      expect(reached?.body, c.name).toBe(bigOrder);
      expect(valuesOf(reached, 'expect'), c.name).toEqual([]);
    }
    expect(await upstreamErrors(gw.url)).toBe(0);
    expect(await upstreamErrors(shadowGw.url)).toBe(0);
  });
});

describe('header names and values', () => {
  it('a header named __proto__ is a legacy 400 naming it, on a passthrough and in shadow mode; nothing is forwarded', async () => {
    for (const [base, credential] of [
      [gw.url, ['Authorization', `Bearer ${KEYS.soloSk}`]],
      [shadowGw.url, ['Limepay-SecretKey', KEYS.soloSk]],
    ] as const) {
      const before = current.seen.length + legacy.seen.length;
      const answer = await raw(base, '/orders/ordr_proto1', 'GET', [
        [credential[0], credential[1]],
        ['__proto__', 'x'],
      ]);
      expect(answer.status, answer.body).toBe(400);
      expect(json(answer)).toMatchObject({
        errorCode: 'invalid_request',
        detail: expect.stringContaining('__proto__'),
      });
      expect(current.seen.length + legacy.seen.length).toBe(before);
    }
  });

  it('a header named constructor goes upstream as its value, not as a function', async () => {
    const answer = await raw(gw.url, '/orders/ordr_ctor1', 'GET', [
      ['Authorization', `Bearer ${KEYS.soloSk}`],
      ['constructor', 'plain'],
      ['toString', 'also-plain'],
    ]);
    expect(answer.status).toBe(200);
    const reached = current.seen.find((s) => s.url === '/orders/ordr_ctor1');
    expect(valuesOf(reached, 'constructor')).toEqual(['plain']);
    expect(valuesOf(reached, 'tostring')).toEqual(['also-plain']);
  });

  it('a header that Connection names is hop-by-hop and not forwarded', async () => {
    const answer = await raw(gw.url, '/orders/ordr_conn1', 'GET', [
      ['Authorization', `Bearer ${KEYS.soloSk}`],
      ['Connection', 'close, X-Internal-Secret'],
      ['X-Internal-Secret', 'hop'],
      ['X-Kept', 'end-to-end'],
    ]);
    expect(answer.status).toBe(200);
    const reached = current.seen.find((s) => s.url === '/orders/ordr_conn1');
    expect(valuesOf(reached, 'x-internal-secret')).toEqual([]);
    expect(valuesOf(reached, 'x-kept')).toEqual(['end-to-end']);
  });

  it('an invalid X-Forwarded-Host never reaches the legacy upstream (it builds the 3DS redirectURL from it), in legacy mode and in shadow', async () => {
    for (const base of [gw.url, shadowGw.url]) {
      const path = `/orders/ordr_xfh${base === gw.url ? 1 : 2}`;
      const answer = await raw(base, path, 'GET', [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['X-Forwarded-Host', 'evil.example/phish?x='],
        ['X-Forwarded-Proto', 'javascript'],
      ]);
      expect(answer.status).toBe(200);
      const reached = legacy.seen.find((s) => s.url === path);
      expect(valuesOf(reached, 'x-forwarded-host'), base).toEqual([new URL(base).host]);
      expect(valuesOf(reached, 'x-forwarded-proto'), base).toEqual(['http']);
    }
  });
});

describe("X-Forwarded-Host and -Proto: a trusted proxy's, and only when they parse (issue 56, item 4)", () => {
  type Upstream = Awaited<ReturnType<typeof origin>>;
  // legacy mode (L3), a shadow primary (L17) and a translated call (L6): each upstream builds URLs from them
  const paths = [
    ['legacy mode', (n: number) => `/orders/ordr_tp${n}`, () => legacy],
    ['shadow', (n: number) => `/transactions?merchantOrderId=ordr_tp${n}`, () => legacy],
    ['translated', (n: number) => `/transactions/tran_tp${n}`, () => current],
  ] as const;
  let n = 0;
  /** One GET with the forwarded headers given; what reached the upstream (found by the request's own id in its URL). */
  const reach = async (
    base: string,
    path: (n: number) => string,
    upstream: () => Upstream,
    forwarded: [string, string][],
  ) => {
    const id = `tp${++n}`;
    const target = path(n);
    const answer = await raw(base, target, 'GET', [['Limepay-SecretKey', KEYS.soloSk], ...forwarded]);
    expect(answer.status, `${target}: ${answer.body}`).toBeLessThan(500);
    const seen = upstream().seen.find((s) => new RegExp(`_${id}(?![0-9])`).test(s.url));
    return {
      host: valuesOf(seen, 'x-forwarded-host'),
      proto: valuesOf(seen, 'x-forwarded-proto'),
      reached: seen !== undefined,
    };
  };

  it('from a trusted proxy, a valid host[:port] and scheme reach the upstream on every path', async () => {
    for (const [label, path, upstream] of paths)
      for (const host of [
        'api.sandbox.limepay.example',
        'api.sandbox.limepay.example:8443',
        '203.0.113.7:443',
        '[2001:db8::1]:8443',
      ]) {
        const seen = await reach(trustedGw.url, path, upstream, [
          ['X-Forwarded-Host', host],
          ['X-Forwarded-Proto', 'https'],
        ]);
        expect(seen.reached, `${label} ${host}`).toBe(true);
        expect([seen.host, seen.proto], `${label} ${host}`).toEqual([[host], ['https']]);
      }
  });

  it("from a trusted proxy, a value that is not a host[:port] with a valid port is ignored: the gateway's own host stands", async () => {
    const own = new URL(trustedGw.url).host;
    const bad = [
      '..',
      '-',
      '.',
      'evil.example:99999',
      'evil.example:0',
      'evil.example:',
      'a..b',
      '-evil.example',
      'evil-.example',
      'evil.example/phish',
      'user@evil.example',
      '[::1',
      '[not-ip]:80',
      `${'a'.repeat(64)}.example`,
    ];
    for (const [label, path, upstream] of paths)
      for (const host of bad) {
        const seen = await reach(trustedGw.url, path, upstream, [
          ['X-Forwarded-Host', host],
          ['X-Forwarded-Proto', 'gopher'],
        ]);
        expect(seen.reached, `${label} ${host}`).toBe(true);
        expect([seen.host, seen.proto], `${label} ${host}`).toEqual([[own], ['http']]);
      }
  });

  it('from any other peer, even valid ones are ignored (the gateway trusts no proxy by default)', async () => {
    const untrusted = [
      ['legacy mode', gw.url, paths[0][1], () => legacy],
      ['shadow', shadowGw.url, paths[0][1], () => legacy],
      ['translated', gw.url, paths[2][1], () => current],
    ] as const;
    for (const [label, base, path, upstream] of untrusted) {
      const seen = await reach(base, path, upstream, [
        ['X-Forwarded-Host', 'api.sandbox.limepay.example'],
        ['X-Forwarded-Proto', 'https'],
      ]);
      expect(seen.reached, label).toBe(true);
      expect([seen.host, seen.proto], label).toEqual([[new URL(base).host], ['http']]);
    }
  });
});

describe('a key given twice in one JSON object (docs/decisions.md D-GW-2)', () => {
  const twice = (amount: string) =>
    `{"internalOrderId":"dup-1","paymentAmount":{"amount":100,"currency":"AUD","amount":${amount}},"description":"","billing":{"name":"Jo"}}`;

  it('is a legacy 400 naming the key on a translated route, and nothing is sent', async () => {
    const before = current.seen.length;
    const body = '{"transactionId":"tran_dup1","refundAmount":{"amount":100,"currency":"AUD","amount":100000}}';
    const answer = await raw(
      gw.url,
      '/refunds',
      'POST',
      [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['Content-Type', 'application/json'],
      ],
      body,
    );
    expect(answer.status).toBe(400);
    expect(json(answer)).toMatchObject({
      errorCode: 'invalid_request',
      detail: 'body.refundAmount.amount: the key is given twice; send each field once',
    });
    expect(current.seen.length).toBe(before);
  });

  it('goes to the legacy upstream as the client sent it in legacy mode: the legacy service decides', async () => {
    const answer = await raw(
      gw.url,
      '/orders',
      'POST',
      [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['Content-Type', 'application/json'],
      ],
      twice('100000'),
    );
    expect(answer.status).toBe(200);
    expect(legacy.seen.at(-1)).toMatchObject({ method: 'POST', url: '/orders', body: twice('100000') });
  });

  it('in shadow mode: the legacy side answers the client, and the comparison records what each side understood', async () => {
    const answer = await raw(
      shadowGw.url,
      '/orders',
      'POST',
      [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['Content-Type', 'application/json'],
      ],
      twice('100001'),
    );
    expect(answer.status).toBe(200);
    expect(legacy.seen.at(-1)).toMatchObject({ method: 'POST', url: '/orders', body: twice('100001') });
    await shadowGw.gateway.shadow.idle();
    const [record] = shadowGw.gateway.shadow.ledger.find(/^x-request-id: (.+)$/im.exec(answer.head)![1]!.trim()) as {
      differences: unknown[];
    }[];
    expect(record?.differences).toEqual([
      {
        path: '$translation',
        primary: 'accepted (200)',
        candidate: 'refused: invalid_request: body.paymentAmount.amount: the key is given twice; send each field once',
      },
    ]);
  });
});

describe('a body on a route that takes none', () => {
  const routes = [
    ['L10', 'DELETE', '/transactions/tran_nobody1/authorisation'],
    ['L12', 'DELETE', '/orders/ordr_nobody1'],
    ['L16', 'DELETE', '/merchants/mcht_nobody1/payments/sources/card/cust_nobody1/psrc_nobody1'],
    ['L25', 'PUT', '/platforms/mktp_nobody1/merchants/mcht_nobody1/bankAccounts/bank_nobody1/primary'],
  ] as const;
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);

  it('is a legacy 400 naming the body (XML, deep nesting, fields), and the write is never sent', async () => {
    for (const [route, method, path] of routes)
      for (const body of ['<cancel reason="x"/>', deep, '{"reason":"changed my mind"}']) {
        const before = current.seen.length;
        const credential: [string, string] =
          route === 'L25' ? ['Limepay-Token', KEYS.marketplace] : ['Limepay-SecretKey', KEYS.soloSk];
        const answer = await raw(gw.url, path, method, [credential, ['Content-Type', 'application/xml']], body);
        expect(answer.status, `${route} ${body.slice(0, 20)}: ${answer.body}`).toBe(400);
        expect(json(answer).errorCode, route).toBe('invalid_request');
        expect(json(answer).detail, route).toMatch(/^body/);
        expect(current.seen.length, `${route}: nothing reached the current API`).toBe(before);
      }
  });

  it('none, {} or null are taken as no body', async () => {
    for (const body of ['', '{}', 'null']) {
      const answer = await raw(gw.url, '/orders/ordr_nobody2', 'DELETE', [['Limepay-SecretKey', KEYS.soloSk]], body);
      expect(answer.status, `${JSON.stringify(body)}: ${answer.body}`).not.toBe(400);
    }
  });
});

describe('request targets', () => {
  it('an absolute-form target and dot segments are refused, never forwarded', async () => {
    for (const target of [
      'http://evil.example/orders/ordr_abs1',
      '/sandbox/../orders/ordr_dot1',
      '/sandbox/%2e%2e/orders/ordr_dot2',
      '/orders/./ordr_dot3',
    ]) {
      const before = current.seen.length + legacy.seen.length;
      for (const credential of [
        ['Authorization', `Bearer ${KEYS.soloSk}`],
        ['Limepay-SecretKey', KEYS.soloSk],
      ] as const) {
        const answer = await raw(gw.url, target, 'GET', [[credential[0], credential[1]]]);
        expect(answer.status, `${target}: ${answer.body}`).toBe(400);
        expect(json(answer)).toMatchObject({ errorCode: 'invalid_request', detail: expect.stringMatching(/^path/) });
      }
      expect(current.seen.length + legacy.seen.length, target).toBe(before);
    }
  });

  it('every request line gets an HTTP answer in the legacy shape: CONNECT, absolute forms (own paths too), unknown methods (issue 56, item 5)', async () => {
    const before = current.seen.length + legacy.seen.length;
    const lines: [string, string, number, RegExp][] = [
      ['CONNECT', '/orders', 400, /^method: CONNECT/],
      ['CONNECT', 'api.sandbox.limepay.example:443', 400, /^method: CONNECT/],
      ['CONNECT', `127.0.0.1:${new URL(current.url).port}`, 400, /^method: CONNECT/],
      ['GET', 'http://evil.example/_paybridge/routes', 400, /^path/],
      ['GET', `http://127.0.0.1:${new URL(legacy.url).port}/orders/ordr_abs2`, 400, /^path/],
      ['GET', '*', 400, /^path/],
      ['FROB', '/orders', 400, /^method/],
      ['PROPFIND', '/orders/ordr_m1', 404, /PROPFIND \/orders\/ordr_m1 is not a legacy route/],
      ['QUERY', '/transactions', 404, /QUERY \/transactions is not a legacy route/],
    ];
    for (const [method, target, status, detail] of lines) {
      const answer = await raw(gw.url, target, method, [['Limepay-SecretKey', KEYS.soloSk]]);
      expect(answer.status, `${method} ${target}: ${answer.head}`).toBe(status);
      const body = json(answer);
      expect(body, `${method} ${target}`).toMatchObject({
        statusCode: status,
        errorCode: expect.any(String),
        message: expect.any(String),
        detail: expect.stringMatching(detail),
        tracer: expect.any(String),
      });
    }
    expect(current.seen.length + legacy.seen.length, 'nothing was forwarded, no tunnel opened').toBe(before);
    gw.gateway.flushLogs();
    // each refusal's tracer is in the log, counted as a refusal
    const connect = sink
      .records()
      .filter((r) => r.msg === 'request refused by the HTTP parser' && String(r.detail).startsWith('method: CONNECT'));
    expect(connect).toHaveLength(3);
  });

  it('OPTIONS * is answered by the gateway with the methods it serves', async () => {
    const answer = await raw(gw.url, '*', 'OPTIONS', []);
    expect(answer.status).toBe(204);
    expect(answer.head).toMatch(/^allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS$/im);
  });
});

describe('a client that gives up mid-body', () => {
  it('is logged as its own failure, never at error level as the gateway failing', async () => {
    const before = sink.records().length;
    await raw(
      gw.url,
      '/orders',
      'POST',
      [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['Content-Type', 'application/json'],
      ],
      bigOrder,
      100,
    );
    await raw(
      gw.url,
      '/refunds',
      'POST',
      [
        ['Limepay-SecretKey', KEYS.soloSk],
        ['Content-Type', 'application/json'],
      ],
      bigOrder,
      10,
    );
    await new Promise((r) => setTimeout(r, 300));
    gw.gateway.flushLogs();
    const lines = sink.records().slice(before);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('internal_error');
  });
});
