/**
 * The replay corpus: client-shaped traffic through a gateway keeping one, then replayed offline. The
 * corpus holds no secret (each replaced by a stable placeholder of its kind); replayed through this
 * build, nothing would change, the errors the gateway made itself (their tracers its request ids) and
 * bodies of every shape included, so `paybridge replay` exits 0 and CI can gate on it; replayed
 * through a build whose L6 mapping reads the wrong fee, exactly L6 is reported, at the answer's `fee`,
 * and `paybridge replay` exits 3 naming the route and path. The writer bounds what it keeps: an
 * exchange nested 10,000 levels deep or larger than an entry may be is left out and counted, and the
 * request is answered all the same.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayCorpus } from '../../src/cli/replay.js';
import { createCorpus, placeholderOf } from '../../src/shadow/corpus.js';
import { createTranslator } from '../../src/translate/index.js';
import { dotnetSdk } from '../clients/dotnet.js';
import { magento } from '../clients/magento.js';
import { unblockCards } from '../clients/replay.js';
import { mappingsWithBrokenL6Fee } from '../helpers/broken-mapping.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { CARDS, jwt, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/spawn.js';

const run = promisify(execFile);
const corpusFile = logPath('replay-corpus', 'jsonl');
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startSandbox();
  const gw = await startGateway({
    upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
    routes: { '*': 'current' },
    shadow: { corpus: { file: corpusFile } },
  });
  try {
    for (const deployed of [dotnetSdk, magento]) {
      await unblockCards(sb.currentUrl);
      await deployed({ base: gw.url });
    }
    // what else reaches a gateway: the errors it answers itself (a body it refuses, a currency it
    // checks), the upstream's own errors, and bodies of every shape, each then replayed
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    for (const raw of [
      '""',
      'null',
      '[]',
      '123',
      'a=b&c=d',
      '{"internalOrderId":5}',
      '{"internalOrderId":"dup","internalOrderId":"dup2"}',
    ])
      expect((await api.raw('POST', '/orders', { raw })).status, raw).toBe(400);
    const order = await api.post('/orders', legacyOrder({ internalOrderId: 'corpus-read' }));
    // metadata goes on byte for byte: a number a double cannot hold, recorded and replayed exactly
    expect(
      (
        await api.raw('POST', '/orders', {
          raw: JSON.stringify(legacyOrder({ internalOrderId: 'corpus-exact' })).replace(
            '"id":42',
            '"id":12345678901234567890123',
          ),
        })
      ).status,
    ).toBe(200);
    expect((await api.get(`/orders/${order.body.merchantOrderId}`)).status).toBe(200);
    expect((await api.get('/orders/ordr_not_there')).status).toBe(404);
    expect(
      (await api.post('/refunds', { transactionId: 'tran_not_there', refundAmount: { amount: 100, currency: 'AUD' } }))
        .status,
    ).toBe(404);
  } finally {
    await gw.close();
  }
}, 60_000);
afterAll(() => sb.close());

describe('placeholders', () => {
  it('keep the kind of each secret, the same one always the same, and hide it', () => {
    const key = placeholderOf(KEYS.soloSk);
    expect(key).toMatch(/^sandbox_sk_corpus[0-9a-f]{12}$/);
    expect(placeholderOf(KEYS.soloSk)).toBe(key);
    expect(placeholderOf(KEYS.betaSk)).not.toBe(key);
    expect(placeholderOf('live_api_some_marketplace_key')).toMatch(/^live_api_corpus/);
    expect(placeholderOf('shopper@example.com')).toMatch(/^u[0-9a-f]{8}@example\.com$/);
    expect(placeholderOf(CARDS.decline)).toBe(CARDS.decline);
    expect(placeholderOf('5555 5555 5555 4444')).toBe('4242424242424242');
    const token = placeholderOf(jwt('merchant', 'mcht_solo'));
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({ kind: 'merchant' });
    expect(placeholderOf('ordr_abc123')).toBe('ordr_abc123');
  });
});

describe('a corpus of client traffic, replayed', () => {
  it('holds every translated exchange with its current calls, and no secret', () => {
    const text = readFileSync(corpusFile, 'utf8');
    const entries = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { route: string; current: unknown[] });
    expect(new Set(entries.map((e) => e.route))).toEqual(
      new Set(['L1', 'L3', 'L4', 'L6', 'L7', 'L9', 'L10', 'L12', 'L28', 'L29', 'L30', 'L31']),
    );
    // L7 reads the transaction, then refunds: two current calls
    expect(entries.find((e) => e.route === 'L7')!.current).toHaveLength(2);
    for (const secret of [KEYS.soloSk, 'buyer@domain.example', 'sam@example.com'])
      expect(text, secret).not.toContain(secret);
    // the sign-in's checkout token, the pay-by-link token: placeholders of their kind
    for (const token of text.match(/"(customToken|token)":"[^"]+"/g) ?? [])
      expect(token).toMatch(/:"chk_corpus[0-9a-f]{12}"$/);
    // and inside the magic link that carries it
    const links = text.match(/"magicLink":"[^"]+"/g) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/token=chk_corpus[0-9a-f]{12}"$/);
    expect(text.match(/\bchk_(?!corpus)[A-Za-z0-9_-]+/g)).toBeNull();
  });

  it('through this build: nothing would change', async () => {
    const { routes, bad } = await replayCorpus([corpusFile], createTranslator());
    expect(bad).toBe(0);
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const r of routes) expect(r.differences, r.route).toEqual([]);
  });

  it('through a build with L6 changed: exactly L6, at fee, recorded and new value', async () => {
    const { routes } = await replayCorpus([corpusFile], createTranslator({ mappings: mappingsWithBrokenL6Fee() }));
    const changed = routes.filter((r) => r.changed > 0);
    expect(changed.map((r) => r.route)).toEqual(['L6']);
    expect(new Set(changed[0]!.differences.map((d) => `${d.at} ${d.path}`))).toEqual(new Set(['legacy.answer fee']));
    expect(changed[0]!.differences[0]).toMatchObject({ primary: expect.any(Number), candidate: expect.any(Number) });
  });

  it('paybridge replay: exit 0 when nothing would change, 3 naming the route and path when something would', async () => {
    const same = await run(process.execPath, [BIN, 'replay', corpusFile]);
    expect(same.stdout).toMatch(/^replay: \d+ exchanges, 0 would change/m);
    // the gateway's own refusals are in it, with the gateway's request id as their tracer
    const entries = readFileSync(corpusFile, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { requestId: string; legacy: { answer: { status: number; body: { tracer?: string } } } },
      );
    const refusals = entries.filter(
      (e) => e.legacy.answer.status === 400 && e.legacy.answer.body.tracer === e.requestId,
    );
    expect(refusals.length).toBeGreaterThanOrEqual(7);
    // a recorded answer that this build would not give: the corpus of yesterday's mapping
    const lines = readFileSync(corpusFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { route: string; legacy: { answer: { body: Record<string, unknown> } } });
    const order = lines.find((e) => e.route === 'L3')!;
    order.legacy.answer.body.internalOrderId = 'yesterday';
    const changed = logPath('replay-corpus-changed', 'jsonl');
    writeFileSync(changed, `${JSON.stringify(order)}\n`);
    const failed = await run(process.execPath, [BIN, 'replay', changed]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(3);
    expect(failed?.stdout).toMatch(/^L3\s+1 replayed\s+1 would change$/m);
    expect(failed?.stdout).toContain('legacy.answer internalOrderId: "yesterday" -> ');
  });
});

describe('tracers', () => {
  it('a corpus written before request ids were kept: the tracer the gateway minted is compared as such, an upstream tracer as a value', async () => {
    const entries = readFileSync(corpusFile, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            requestId?: string;
            route: string;
            legacy: { request: { body?: unknown }; answer: { status: number; body: { tracer?: string } } };
            current: { answer: { body: { tracer?: string } } }[];
          },
      );
    const minted = entries.find(
      (e) =>
        e.legacy.answer.status === 400 &&
        e.legacy.answer.body.tracer === e.requestId &&
        typeof e.legacy.request.body === 'object',
    )!;
    delete minted.requestId;
    const upstream = entries.find(
      (e) => e.legacy.answer.status === 404 && e.current[0]?.answer.body.tracer !== undefined,
    )!;
    const { routes } = await replayCorpus([corpusOf('replay-corpus-old', [minted, upstream])], createTranslator());
    expect(routes.flatMap((r) => r.differences)).toEqual([]);
    // the mapping that dropped the upstream's tracer for its own would be caught
    upstream.current[0]!.answer.body.tracer = 'tracer-the-mapping-must-carry';
    const changed = await replayCorpus([corpusOf('replay-corpus-tracer', [upstream])], createTranslator());
    expect(changed.routes.flatMap((r) => r.differences.map((d) => `${r.route} ${d.at} ${d.path}`))).toEqual([
      `${upstream.route} legacy.answer tracer`,
    ]);
  });
});

/** A corpus file of these entries. */
function corpusOf(name: string, entries: unknown[]): string {
  const file = logPath(name, 'jsonl');
  writeFileSync(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return file;
}

describe('the corpus writer', () => {
  it('leaves out a body nested 10,000 levels deep (no stack overflow), counted, and the client has its answer', async () => {
    const file = logPath('replay-corpus-deep', 'jsonl');
    const logs = logSink();
    const gw = await startGateway(
      {
        upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
        routes: { '*': 'current' },
        shadow: { corpus: { file } },
      },
      logs.stream,
    );
    try {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const answer = await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).raw('POST', '/orders', { raw: deep });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'invalid_request', detail: 'body: nested deeper than 64 levels' });
      // a keep-alive connection still serves the next request
      expect((await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get('/orders/ordr_not_there')).status).toBe(
        404,
      );
      expect((await client(gw.url).get('/metrics')).text).toMatch(
        /^paybridge_corpus_skipped_total\{reason="depth"\} 1$/m,
      );
    } finally {
      await gw.close();
    }
    gw.gateway.flushLogs();
    expect(logs.records().filter((r) => (r.level as number) >= 50)).toEqual([]);
    const kept = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { route: string; legacy: { answer: { status: number } } });
    expect(kept.map((e) => e.legacy.answer.status)).toEqual([404]);
  });

  it('leaves out an exchange larger than an entry may be (a quarter of maxBytes, 1 MiB at most)', async () => {
    const file = logPath('replay-corpus-size', 'jsonl');
    const skipped: string[] = [];
    const corpus = createCorpus({ file, maxBytes: 64 * 1024, keep: 1, sample: 1 }, (reason) => skipped.push(reason));
    const request = (note: string) => ({
      method: 'POST',
      path: '/orders',
      headers: { 'limepay-secretkey': KEYS.soloSk },
      body: JSON.stringify({ internalOrderId: 'size', note }),
    });
    corpus.write('L1', request('x'.repeat(20 * 1024)), { status: 400, body: { errorCode: 'invalid_request' } }, []);
    corpus.write('L1', request('small'), { status: 400, body: { errorCode: 'invalid_request' } }, []);
    await corpus.close();
    expect(skipped).toEqual(['size']);
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).legacy.request.body.note),
    ).toEqual(['small']);
  });
});

describe('the corpus file', () => {
  it('is bounded in bytes: past maxBytes it is rotated, and only `keep` old files are kept', async () => {
    const file = logPath('replay-corpus-rotated', 'jsonl');
    const corpus = createCorpus({ file, maxBytes: 4096, keep: 2, sample: 1 });
    const request = { method: 'GET', path: '/orders/ordr_1', headers: { 'limepay-secretkey': KEYS.soloSk } };
    for (let i = 0; i < 60; i++)
      corpus.write('L3', request, { status: 200, body: { merchantOrderId: 'ordr_1', note: 'x'.repeat(200) } }, [
        {
          request: { method: 'GET', path: '/orders/ordr_1', headers: { authorization: `Bearer ${KEYS.soloSk}` } },
          answer: { status: 200, body: { OnlineOrder: { order: { orderId: 'ordr_1' } } } },
        },
      ]);
    await corpus.close();
    expect(statSync(file).size).toBeLessThanOrEqual(4096);
    expect(existsSync(`${file}.1`) && existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const f of [file, `${file}.1`, `${file}.2`]) expect(readFileSync(f, 'utf8')).not.toContain(KEYS.soloSk);
  });
});
