/**
 * One redaction rule set for every output (issue 56, item 2; issue 57, item 3; issue 58, item 4):
 * every kind of secret the adversarial passes found is planted in real traffic through a gateway
 * (shadow, canary and the replay corpus on), with a legacy upstream written here that echoes what it
 * was sent into its answers, so the secrets reach the comparisons' differences and the report too.
 * Then every output is read whole: the log lines, the shadow records, the corpus, the report (JSON, a
 * find, the HTML page); no planted value may be in any of them, and each output must show the planted
 * names (masked), so a case that never reached an output cannot pass unseen.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorpus } from '../../src/shadow/corpus.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { call, client } from '../helpers/http.js';
import { KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const OPERATOR = 'operator-token-planted-secrets';

/** Query parameter names that mark a secret, each with its own planted value (none has a secret's shape: only the name can mask it). */
const QUERY_NAMES = [
  'private_key',
  'pwd',
  'pass',
  'session',
  'sk',
  'cvc_code',
  'cvv',
  'api_key',
  'key',
  'sig',
  'signature',
  'code',
  'jwt',
  'auth',
  'cvn',
  'cvc2',
  'security_code',
  'access_token',
  'secret_key',
  'api-key',
  'x-auth-token',
  'card_cvv',
  'checkoutToken',
  'card',
  'cvc',
  'token',
  'password',
];
const queryValue = (name: string) => `zq-${name.replace(/[^a-z0-9]/gi, '')}-planted`;

/**
 * Body field names that mark a CVC, a PIN, a card number or a secret (the hardening pass's, the
 * earlier CVC aliases, and one name for every entry of the rule set, so that removing any fails here).
 */
const BODY_NAMES = [
  'cvvNumber',
  'cvcCode',
  'cvv_code',
  'cvn2',
  'card[cvc]',
  'pin',
  'card_cvc',
  'cid',
  'cardCvv',
  'card_cvv',
  'cvn',
  'ccv',
  'cvd',
  'verificationCode',
  'securityCode',
  'cvv2',
  'CardCode',
  'cardSecurityCode',
  'csc',
  'cav2',
  'cvd2',
  'cardVerificationValue',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'otp',
  'authCookie',
  'private_key',
  'client_secret',
  'sessionToken',
  'publicKey',
  'serviceKey',
  'accessKey',
  'signingKey',
  'customerJwt',
  'cardExpiry',
  'magicLink',
  'cardNumber',
  'pan',
  'cardNo',
  'ccNumber',
  'creditCardNumber',
];
/** A distinct four-digit value per body name (a CVC's form), none a run inside another. */
const bodyValue = (i: number) => String(9400 + i * 7);

/** Headers that carry secrets, by name or by shape (a JWT as a request id). */
const JWT_SHAPED = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.cGxhbnRlZC1zaWduYXR1cmU';
const HEADERS: Record<string, string> = {
  'Proxy-Authorization': 'Basic cGxhbnRlZC1wcm94eTpzZWNyZXQ=',
  'X-Upstream-Authorization': 'zq-upstream-authorization-header-planted',
  'X-Auth-Token': 'zq-x-auth-token-header-planted',
  'x-cvv': '9391',
  'x-api-key': 'zq-x-api-key-header-planted',
  'x-request-id': JWT_SHAPED,
};

/** Card numbers and other secrets written into free text. */
const CARD = '4539578763621486';
const CARD_SPACED = '4539 5787 6362 1486';
const CARD_DASHED = '4539-5787-6362-1486';
const TEXT_CVC = '9382';
const TEXT_KEY = 'sandbox_sk_plantedkeyintext01';
const TEXT_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXh0In0.dGV4dC1zaWduYXR1cmU';
const TEXT_CHECKOUT = 'chk_plantedcheckouttoken01';
const TEXT_MERCHANT_TOKEN = 'mtok_plantedmerchanttoken1';
const TEXT_GLUED_CARD = '4111111111111111';
const TEXT_EMAIL = 'planted.shopper@example.com';
const TEXT_BEARER = 'zqPlantedBearerValue123';
const FREE_TEXT =
  `card ${CARD}, or ${CARD_SPACED}, or ${CARD_DASHED}; cvc ${TEXT_CVC}; key ${TEXT_KEY}; token ${TEXT_JWT}; ` +
  `link ${TEXT_CHECKOUT} for ${TEXT_MERCHANT_TOKEN}; ref_${TEXT_GLUED_CARD}; write to ${TEXT_EMAIL}; Authorization: Bearer ${TEXT_BEARER}`;
/** A body that is not JSON, and a form body: both redacted as text, never kept raw. */
const NOT_JSON_CVC = '9373';
const NOT_JSON = `{"cardCvv":"${NOT_JSON_CVC}", "note": "card ${CARD}", bad`;
const FORM_PIN = 'zq-form-pin-planted';
const FORM = `pin=${FORM_PIN}&cvv=9364&amount=100`;

/** Every planted value: what must be in no output. A digit value is matched only as a whole number (not inside an id or a time). */
function planted(): { label: string; pattern: RegExp }[] {
  const literal = (label: string, value: string) => ({
    label,
    pattern: new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  });
  const digits = (label: string, value: string) => ({
    label,
    pattern: new RegExp(`(?<![0-9A-Fa-f.-])${value}(?![0-9A-Fa-f-])`),
  });
  return [
    ...QUERY_NAMES.map((name) => literal(`query ${name}`, queryValue(name))),
    ...BODY_NAMES.map((name, i) => digits(`body ${name}`, bodyValue(i))),
    ...Object.entries(HEADERS).map(([name, value]) =>
      /^\d+$/.test(value) ? digits(`header ${name}`, value) : literal(`header ${name}`, value),
    ),
    literal('card in free text', CARD),
    literal('spaced card', CARD_SPACED),
    literal('dashed card', CARD_DASHED),
    digits('cvc in free text', TEXT_CVC),
    literal('key in free text', TEXT_KEY),
    literal('JWT in free text', TEXT_JWT),
    literal('checkout token in free text', TEXT_CHECKOUT),
    literal('merchant token in free text', TEXT_MERCHANT_TOKEN),
    literal('card glued to a word', TEXT_GLUED_CARD),
    literal('e-mail in free text', TEXT_EMAIL),
    literal('Bearer value in free text', TEXT_BEARER),
    digits('CVC of a body that is not JSON', NOT_JSON_CVC),
    literal('PIN of a form body', FORM_PIN),
    digits('CVV of a form body', '9364'),
    literal('the credential', KEYS.soloSk),
    digits('a card number as a JSON number', '4024007198964305'),
    literal('a card number as a key', '5105105105105100'),
  ];
}

/** A legacy upstream written here from legacy-api.md's shapes: it answers every call 200 with an order that echoes what it was sent. */
async function echoingLegacy() {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => /^(x-|proxy-)/.test(name)));
        const id = /ordr_[A-Za-z0-9]+/.exec(req.url ?? '')?.[0] ?? 'ordr_echo';
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            merchantOrderId: id,
            internalOrderId: 'echo',
            amount: 100,
            currency: 'AUD',
            status: 'created',
            description: FREE_TEXT,
            echo: `${req.method} ${req.url} ${JSON.stringify(headers)} ${Buffer.concat(chunks).toString('utf8')}`,
          }),
        );
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'paybridge-planted-'));
const recordFile = join(dir, 'shadow.jsonl');
const corpusFile = join(dir, 'corpus.jsonl');
const logs = logSink();
let sb: TestSandbox;
let legacy: Awaited<ReturnType<typeof echoingLegacy>>;
let outputs: { logs: string; records: string; corpus: string; report: string; find: string; page: string };

beforeAll(async () => {
  sb = await startSandbox();
  legacy = await echoingLegacy();
  const gw = await startGateway(
    {
      upstreams: { sandbox: { current: sb.currentUrl, legacy: legacy.url } },
      routes: { '*': 'shadow', L1: 'canary' },
      shadow: { log: recordFile, learnSample: 0, corpus: { file: corpusFile } },
      operatorToken: OPERATOR,
    },
    logs.stream,
  );
  try {
    const query = QUERY_NAMES.map((name) => `${encodeURIComponent(name)}=${queryValue(name)}`).join('&');
    const headers = { 'Limepay-SecretKey': KEYS.soloSk, ...HEADERS };
    const fields = Object.fromEntries(BODY_NAMES.map((name, i) => [name, bodyValue(i)]));
    const body = legacyOrder({
      description: FREE_TEXT,
      ...fields,
      metadata: { note: FREE_TEXT, digits: 4024007198964305, '5105105105105100': 'gift card' },
    });
    // a read in shadow mode: the query and headers, compared (the echo differs from the translation's answer), in the corpus
    const read = await call(gw.url, 'GET', `/orders/ordr_planted1?${query}`, { headers });
    expect(read.status).toBe(200);
    // a create in canary mode: served translated (the corpus keeps it), the legacy side read back and compared
    const created = await call(gw.url, 'POST', `/orders?${query}`, { headers, body });
    expect(created.status).toBe(200);
    // a write in shadow mode (its record keeps the body), with JSON, a body that is not JSON, and a form
    for (const raw of [JSON.stringify(body), NOT_JSON, FORM]) {
      const answer = await call(gw.url, 'POST', '/customers/consumer', {
        headers: { ...headers, 'content-type': 'application/json' },
        raw,
      });
      expect(answer.status).toBe(200);
    }
    await gw.gateway.shadow.idle();
    const operator = client(gw.url, { authorization: `Bearer ${OPERATOR}` });
    const report = await operator.get('/_paybridge/report');
    const found = await operator.get(
      `/_paybridge/report?find=${encodeURIComponent(read.headers.get('x-request-id') ?? '')}`,
    );
    const page = await operator.get('/_paybridge/');
    expect([report.status, found.status, page.status]).toEqual([200, 200, 200]);
    gw.gateway.flushLogs();
    await gw.close();
    outputs = {
      logs: logs.lines.join('\n'),
      records: readFileSync(recordFile, 'utf8'),
      corpus: readFileSync(corpusFile, 'utf8'),
      report: report.text,
      find: found.text,
      page: page.text,
    };
  } catch (err) {
    await gw.close();
    throw err;
  }
}, 60_000);
afterAll(async () => {
  await sb.close();
  await legacy.close();
});

describe('secrets planted in traffic', () => {
  it('appear in no output: logs, shadow records, the corpus, the report, a find, the report page', () => {
    const hits: string[] = [];
    for (const [output, text] of Object.entries(outputs))
      for (const { label, pattern } of planted()) if (pattern.test(text)) hits.push(`${label} in ${output}`);
    expect(hits).toEqual([]);
  });

  it('reached every output they were planted for (masked, not missing)', () => {
    for (const [output, text] of Object.entries(outputs)) expect(text.length, output).toBeGreaterThan(200);
    // records and corpus hold the query names, the body names and the headers, each value masked
    for (const name of QUERY_NAMES) {
      expect(outputs.records, `records: ?${name}=`).toContain(`${encodeURIComponent(name)}=`);
      expect(outputs.corpus, `corpus: ?${name}=`).toContain(`${encodeURIComponent(name)}=`);
      expect(outputs.logs, `logs: ?${name}=`).toContain(`${encodeURIComponent(name)}=[redacted]`);
    }
    for (const name of BODY_NAMES) {
      expect(outputs.records, `records: ${name}`).toContain(`"${name}":"[redacted]"`);
      expect(outputs.corpus, `corpus: ${name}`).toContain(`"${name}":`);
    }
    for (const name of Object.keys(HEADERS).filter((h) => h !== 'x-request-id'))
      expect(outputs.records.toLowerCase(), `records: ${name}`).toContain(`"${name.toLowerCase()}":"[redacted]"`);
    // the echo reached the report and its page: the differences' examples, masked
    for (const output of ['report', 'page', 'find'] as const) {
      expect(outputs[output], output).toContain('[redacted card]');
      expect(outputs[output], output).toMatch(/cvc (\[redacted\]|&#91;redacted&#93;)/);
    }
    // a body that is not JSON is a record's text, masked by name inside it
    expect(outputs.records).toContain('\\"cardCvv\\":\\"[redacted]\\", \\"note\\": \\"card [redacted card]\\", bad');
    expect(outputs.records).toContain('pin=[redacted]&cvv=[redacted]&amount=100');
  });

  it('the corpus keeps each secret as a placeholder of its kind: a CVC as 123, a key as a key of its environment', () => {
    const entries = outputs.corpus
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            route: string;
            legacy: { request: { body?: Record<string, unknown>; headers: Record<string, unknown> } };
          },
      );
    const create = entries.find((e) => e.route === 'L1')!;
    expect(create.legacy.request.body).toMatchObject({
      cvvNumber: '123',
      'card[cvc]': '123',
      cid: '123',
      card_cvc: '123',
      cvcCode: '123',
    });
    expect(create.legacy.request.headers['limepay-secretkey']).toMatch(/^sandbox_sk_corpus[0-9a-f]{12}$/);
    expect(create.legacy.request.headers['x-cvv']).toBe('123');
    expect(JSON.stringify(create.legacy.request.body)).toContain(
      'card 4242424242424242, or 4242424242424242, or 4242424242424242; cvc 123; key sandbox_sk_corpus',
    );
    expect(JSON.stringify(create.legacy.request.body)).toMatch(
      /link chk_corpus[0-9a-f]{12} for mtok_corpus[0-9a-f]{12}; ref_4242424242424242; write to u[0-9a-f]{8}@example\.com; Authorization: Bearer corpus[0-9a-f]{12}/,
    );
  });

  it('the corpus writer masks a body that is not JSON as text, never writing it raw', async () => {
    const file = join(dir, 'corpus-not-json.jsonl');
    const corpus = createCorpus({ file, maxBytes: 1 << 20, keep: 1, sample: 1 });
    corpus.write(
      'L1',
      { method: 'POST', path: '/orders', headers: { 'limepay-secretkey': KEYS.soloSk }, body: NOT_JSON },
      { status: 400, body: { errorCode: 'invalid_request' } },
      [],
    );
    corpus.write(
      'L1',
      { method: 'POST', path: '/orders', headers: { 'limepay-secretkey': KEYS.soloSk }, body: FORM },
      { status: 400, body: { errorCode: 'invalid_request' } },
      [],
    );
    await corpus.close();
    const text = readFileSync(file, 'utf8');
    for (const { label, pattern } of planted()) expect(pattern.test(text), label).toBe(false);
    expect(text).toContain('\\"cardCvv\\":\\"123\\"');
    expect(text).toContain('cvv=123');
  });
});
