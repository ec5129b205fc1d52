/**
 * Redaction everywhere (records, logs, report): card numbers by Luhn check in any string or query
 * value, with or without spaces and dashes; CVC-like fields by name; tokens by name and in queries;
 * customer e-mails masked. One redaction module, one table of rules, used by every writer.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonValue, stringifyJson } from '../../src/contract/json.js';
import { isCardNumber, redactValue, scrub } from '../../src/observability/redact.js';
import { compareAnswers } from '../../src/shadow/diff.js';
import type { Exchange } from '../../src/shadow/exchange.js';
import { ShadowLedger } from '../../src/shadow/ledger.js';
import { comparisonRecord } from '../../src/shadow/records.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { call, client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { CUSTOMER_EMAILS, OPERATOR_TOKENS, QUERY_TOKEN, TEST_CVC } from '../helpers/secrets.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const spaced = '4242 4242 4242 4242';
const dashed = '4242-4242-4242-4242';

describe('the rule table', () => {
  it('masks card numbers by Luhn check however they are written, and leaves other numbers alone', () => {
    expect(isCardNumber(spaced)).toBe(true);
    expect(isCardNumber(dashed)).toBe(true);
    expect(isCardNumber('4242 4242 4242 4243')).toBe(false);
    expect(scrub(`pay with ${spaced} or ${dashed}`)).toBe('pay with [redacted card] or [redacted card]');
    expect(scrub('order 2026-11-22 1234 5678')).toBe('order 2026-11-22 1234 5678');
    // in a path, percent-encoded spaces between the groups (no query, no other hint of a secret)
    expect(scrub(`/customers/${encodeURIComponent(spaced)}/cards`)).toBe('/customers/[redacted card]/cards');
    // digit runs inside an id are not card numbers
    expect(scrub('/transactions/tran_f67cd494000003890a28')).toBe('/transactions/tran_f67cd494000003890a28');
    expect(scrub(`/orders/ordr_1?card=${encodeURIComponent(spaced)}&cvc=123&checkoutToken=${QUERY_TOKEN}`)).toBe(
      '/orders/ordr_1?card=[redacted]&cvc=[redacted]&checkoutToken=[redacted]',
    );
  });

  it('leaves a UUID whose groups are all digits (a tracer, one time in 280), and masks a card beside it', () => {
    const tracer = '9a1a9958-7128-4cf3-87b0-123456789012';
    expect(scrub(tracer)).toBe(tracer);
    expect(scrub('12345678-1234-1234-1234-123456789012')).toBe('12345678-1234-1234-1234-123456789012');
    expect(scrub(`declined (tracer ${tracer}) ${spaced}`)).toBe(`declined (tracer ${tracer}) [redacted card]`);
    expect(scrub(`${tracer}-${dashed}`)).toBe(`${tracer}-[redacted card]`);
    // a bare 12-digit run outside a UUID is still taken for a card, after groups that only begin like one too
    expect(scrub('ref 123456789012')).toBe('ref [redacted card]');
    expect(scrub(`20261123-1200-${CARDS.ok}`)).toBe('20261123-1200-[redacted card]');
  });

  it('tells ids from mismatches on the values compared, not on the masked values a record keeps', () => {
    const exchange = {
      mode: 'shadow',
      route: 'L31',
      requestId: 'req-1',
      request: { method: 'POST', path: '/orders/invoices', headers: {} },
    } as unknown as Exchange;
    const answer = { status: 200, body: {}, latencyMs: 1 };
    // the send paired the two tokens (minted by this create) on their values; the record keeps that verdict
    const record = comparisonRecord(exchange, 'send', answer, answer, [
      { path: 'token', primary: 'chk_4ankxapaJcLs9adro5f2KC', candidate: 'chk_JSa3mu1EIVOgxmMmYzWF7t', noise: 'id' },
      { path: 'order.note', primary: 'see chk_4ankxapaJcLs9adro5f2KC', candidate: 'see chk_JSa3mu1EIVOgxmMmYzWF7t' },
      { path: 'order.updatedAt', primary: '2026-11-26T10:00:00.000Z', candidate: '2026-11-26T10:00:01.000Z' },
    ]);
    expect(record.differences.map((d) => [d.path, d.primary, d.candidate, d.noise])).toEqual([
      ['token', '[redacted]', '[redacted]', 'id'],
      ['order.note', 'see chk_[redacted]', 'see chk_[redacted]', undefined],
      ['order.updatedAt', '2026-11-26T10:00:00.000Z', '2026-11-26T10:00:01.000Z', 'timestamp'],
    ]);
    const ledger = new ShadowLedger({ readyAfter: 1 });
    expect(ledger.noise.explain('L31', record.differences[0]!)).toBe('id');
    expect(ledger.matches(record)).toBe(false);
    expect(ledger.matches({ route: 'L31', differences: [record.differences[0]!, record.differences[2]!] })).toBe(true);
  });

  it('replaces CVC-like fields and tokens by name, in any spelling, and masks e-mails', () => {
    const out = redactValue({
      securityCode: '123',
      card_number: spaced,
      pan: '4000000000000002',
      cvv2: '999',
      CardCode: '1234',
      customToken: 'abc',
      magicLink: 'https://x/?token=abc',
      customerEmail: 'shopper@example.com',
      nested: [{ emailAddress: 'alice@example.com', note: 'write to jo@example.com' }],
    });
    expect(out).toEqual({
      securityCode: '[redacted]',
      card_number: '[redacted]',
      pan: '[redacted]',
      cvv2: '[redacted]',
      CardCode: '[redacted]',
      customToken: '[redacted]',
      magicLink: '[redacted]',
      customerEmail: 's***@example.com',
      nested: [{ emailAddress: 'a***@example.com', note: 'write to j***@example.com' }],
    });
  });
});

describe('the secret forms of the adversarial pass (issue 41)', () => {
  // each row: a value as a client or upstream may write it, and the secret that must not survive
  const FIELDS: [string, string][] = [
    ['cardCvv', TEST_CVC],
    ['card_cvv', TEST_CVC],
    ['cvn', TEST_CVC],
    ['ccv', TEST_CVC],
    ['cvd', TEST_CVC],
    ['verificationCode', TEST_CVC],
    ['x-cvv', TEST_CVC],
    ['Proxy-Authorization', 'Basic c2VjcmV0LXByb3h5Og=='],
    ['X-Auth-Token', 'opaque-auth-token-value'],
    ['cardSecurityCode', TEST_CVC],
    ['x-api-key', 'opaque-api-key-value'],
    ['client_secret', 'opaque-client-secret'],
  ];
  it.each(FIELDS)('a field or header named %s is replaced', (name, secret) => {
    expect(JSON.stringify(redactValue({ [name]: secret, kept: 'visible' }))).toBe(
      JSON.stringify({ [name]: '[redacted]', kept: 'visible' }),
    );
  });

  const QUERIES: [string, string][] = [
    ['cvn', TEST_CVC],
    ['cvc2', TEST_CVC],
    ['security_code', TEST_CVC],
    ['access_token', 'opaque-access-token'],
    ['secret_key', 'opaque-secret'],
    ['api-key', 'opaque-api-key'],
    ['x-auth-token', 'opaque-auth'],
    ['card_cvv', TEST_CVC],
    ['api%2Dkey', 'opaque-encoded-name'],
  ];
  it.each(QUERIES)('a query parameter named %s is masked in a logged URL', (name, secret) => {
    const url = `/orders/ordr_1?merchantOrderId=ordr_1&${name}=${secret}&page=2`;
    const out = scrub(url);
    expect(out).not.toContain(secret);
    expect(out).toBe(`/orders/ordr_1?merchantOrderId=ordr_1&${name}=[redacted]&page=2`);
  });

  it('a card number glued to a word by _ is masked; ids with digit runs are not', () => {
    expect(scrub('/customers/pan_5555555555554444/cards')).toBe('/customers/pan_[redacted card]/cards');
    expect(scrub('card_4242424242424242')).toBe('card_[redacted card]');
    // not Luhn-valid, or part of a longer id: left as it is
    expect(scrub('ref_4242424242424243')).toBe('ref_4242424242424243');
    expect(scrub('tran_12345678901234567890')).toBe('tran_12345678901234567890');
    expect(scrub('tran_a4242424242424242')).toBe('tran_a4242424242424242');
  });

  it('a card number as a JSON key is masked in the value, in a difference path and in its record', () => {
    const out = redactValue({ metadata: { [CARDS.ok]: 'gift', plain: 1 } }) as { metadata: Record<string, unknown> };
    expect(Object.keys(out.metadata)).toEqual(['[redacted card]', 'plain']);
    const exchange = {
      mode: 'shadow',
      route: 'L1',
      requestId: 'req-2',
      request: {
        method: 'POST',
        path: '/orders',
        headers: {},
        body: JSON.stringify({ metadata: { [CARDS.ok]: 'x' } }),
      },
    } as unknown as Exchange;
    const answer = { status: 200, body: {}, latencyMs: 1 };
    const record = comparisonRecord(exchange, 'readback', answer, answer, [
      { path: `metadata.${CARDS.ok}`, primary: 'a', candidate: 'b' },
    ]);
    expect(JSON.stringify(record)).not.toContain(CARDS.ok);
    expect(record.differences[0]!.path).toBe('metadata.[redacted card]');
  });
});

describe('numbers', () => {
  it('are written as numbers, exact ones exactly, except an integer of 12 to 19 digits (a card number sent as a number)', () => {
    const value = parseJsonValue(
      '{"ref":12345678901234567890,"rate":12345678.123456789,"n":12345678901234567,"card":4242424242424242,"negative":-400000000000,"amount":10000,"ratio":0.5}',
    );
    expect(stringifyJson(redactValue(value))).toBe(
      '{"ref":12345678901234567890,"rate":12345678.123456789,"n":"[redacted card]","card":"[redacted card]","negative":"[redacted card]","amount":10000,"ratio":0.5}',
    );
    // nothing to mask: the very same value
    const clean = parseJsonValue('{"ref":12345678901234567890,"amount":10000}');
    expect(redactValue(clean)).toBe(clean);
  });

  it('a number a double cannot hold is one leaf of a comparison, equal when its digits are', () => {
    const answer = (ref: string) => ({ status: 200, body: parseJsonValue(`{"metadata":{"ref":${ref},"n":1}}`) });
    expect(compareAnswers(answer('12345678901234567890'), answer('12345678901234567890'))).toEqual([]);
    const differences = compareAnswers(answer('12345678901234567890'), answer('12345678901234567891'));
    expect(differences.map((d) => [d.path, String(d.primary), String(d.candidate)])).toEqual([
      ['metadata.ref', '12345678901234567890', '12345678901234567891'],
    ]);
    expect(compareAnswers(answer('12345678901234567890'), answer('1')).map((d) => d.path)).toEqual(['metadata.ref']);
  });
});

describe('redaction in shadow mode', () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const logs = logSink();
  const recordFile = logPath('shadow-redaction', 'jsonl');
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway(
      {
        upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
        routes: { '*': 'shadow' },
        shadow: { log: recordFile, learnSample: 1 },
        operatorToken: OPERATOR_TOKENS.replay,
      },
      logs.stream,
    );
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('writes no card number, CVC, token or e-mail into records, logs or the report', async () => {
    const api = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    // fields a client may send that the contract does not know, card data in metadata and free text
    const order = await api.post(
      '/orders',
      legacyOrder({
        customerEmail: 'shopper@example.com',
        securityCode: TEST_CVC,
        card_number: spaced,
        pan: dashed,
        cvv2: TEST_CVC,
        metadata: {
          cardCode: TEST_CVC,
          note: `card ${dashed}`,
          contact: 'alice@example.com',
          digits: Number(CARDS.ok),
        },
      }),
    );
    expect(order.status).toBe(200);
    const id = order.body.merchantOrderId;
    await call(
      gw.url,
      'GET',
      `/orders/${id}?card=${encodeURIComponent(spaced)}&cvc=${TEST_CVC}&checkoutToken=${QUERY_TOKEN}`,
      { headers: { 'Limepay-SecretKey': KEYS.soloSk } },
    );
    await api.get(`/merchants/mcht_solo/customers?email=${encodeURIComponent('alice@example.com')}`);
    const customer = await api.post('/customers/plugin', { emailAddress: 'jo@example.com', givenName: 'Jo' });
    await api.post('/authn/tenants/accounts:signinCustomerWithCustomerId', { customerId: customer.body.customerId });
    // the adversarial pass's forms: CVC spellings, a CVC header, secret headers, a card number as a
    // request id (it would be written as requestId everywhere) and as a metadata key
    const odd = await call(gw.url, 'POST', '/orders', {
      headers: {
        'Limepay-SecretKey': KEYS.soloSk,
        'x-cvv': TEST_CVC,
        'X-Auth-Token': QUERY_TOKEN,
        'Proxy-Authorization': `Bearer ${QUERY_TOKEN}`,
        'x-request-id': CARDS.ok,
      },
      body: legacyOrder({
        cardCvv: TEST_CVC,
        card_cvv: TEST_CVC,
        cvn: TEST_CVC,
        ccv: TEST_CVC,
        cvd: TEST_CVC,
        verificationCode: TEST_CVC,
        metadata: { [CARDS.ok]: 'gift card', pan_5555555555554444: 1 },
      }),
    });
    expect(odd.status).toBe(200);
    expect(odd.headers.get('x-request-id')).not.toBe(CARDS.ok);
    await call(
      gw.url,
      'GET',
      `/orders/${id}?cvn=${TEST_CVC}&cvc2=${TEST_CVC}&security_code=${TEST_CVC}&access_token=${QUERY_TOKEN}&secret_key=${QUERY_TOKEN}&api-key=${QUERY_TOKEN}`,
      { headers: { 'Limepay-SecretKey': KEYS.soloSk, 'x-request-id': `req-${KEYS.soloSk}` } },
    );
    const token = (
      await client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` }).post('/sandbox/card-tokens', {
        cardNumber: CARDS.ok,
      })
    ).body.paymentTokenId;
    expect((await api.post(`/orders/${id}/pay`, { paymentToken: token, cardCvc: TEST_CVC })).status).toBe(200);
    await gw.gateway.shadow.idle();
    gw.gateway.flushLogs();

    const report = await client(gw.url, { authorization: `Bearer ${OPERATOR_TOKENS.replay}` }).get(
      '/_paybridge/report',
    );
    const page = await client(gw.url, { authorization: `Bearer ${OPERATOR_TOKENS.replay}` }).get('/_paybridge/');
    expect(page.status).toBe(200);
    const written = [readFileSync(recordFile, 'utf8'), logs.lines.join('\n'), report.text, page.text].join('\n');
    expect(written).toContain('[redacted');
    for (const secret of [
      CARDS.ok,
      spaced,
      dashed,
      '5555555555554444',
      `"${TEST_CVC}"`,
      `=${TEST_CVC}`,
      QUERY_TOKEN,
      ...CUSTOMER_EMAILS,
      KEYS.soloSk,
    ])
      expect(written, secret).not.toContain(secret);
    expect(written).toContain('s***@example.com');
  });
});
