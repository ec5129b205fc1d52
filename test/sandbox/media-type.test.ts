/**
 * Media types (legacy-api.md section 0, current-api-decisions.md "Media type"): both faces read a body
 * as JSON whatever its declared type (the official current plugin's is labelled form-urlencoded, with
 * WordPress's `0: Content-Type: application/json` line); a body that is not JSON is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const card = JSON.stringify({ cardNumber: '4242424242424242' });

describe('current face', () => {
  for (const type of [
    'application/json',
    'application/json; charset=UTF-8',
    'application/json;charset=utf-8',
    'APPLICATION/JSON ; Charset=UTF-8',
    'application/vnd.api+json',
  ])
    it(`accepts ${type}`, async () => {
      const res = await call(sb.currentUrl, 'POST', '/sandbox/card-tokens', {
        headers: { authorization: `Bearer ${KEYS.soloPk}`, 'content-type': type },
        raw: card,
      });
      expect(res.status, res.text).toBe(200);
    });

  for (const type of [
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=UTF-8',
    'text/plain',
    'application/jsonx',
  ])
    it(`takes a JSON body declared ${type}, numeric header lines ignored (the official plugin on WordPress)`, async () => {
      const res = await call(sb.currentUrl, 'POST', '/sandbox/card-tokens', {
        headers: {
          authorization: `Bearer ${KEYS.soloPk}`,
          'content-type': type,
          '0': 'Content-Type: application/json',
          '1': `Content-Length: ${card.length}`,
        },
        raw: card,
      });
      expect(res.status, res.text).toBe(200);
    });

  it('refuses a body that is not JSON, whatever its label, naming the body', async () => {
    const res = await call(sb.currentUrl, 'POST', '/sandbox/card-tokens', {
      headers: { authorization: `Bearer ${KEYS.soloPk}`, 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'cardNumber=4242424242424242',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'invalid_request' });
  });
});

describe('legacy face', () => {
  for (const type of [
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=UTF-8',
    'text/plain',
    'application/json;charset=utf-8',
    'application/octet-stream',
  ])
    it(`reads a JSON body declared ${type}, numeric header lines ignored`, async () => {
      const body = JSON.stringify(legacyOrder());
      const res = await call(sb.legacyUrl, 'POST', '/orders', {
        headers: {
          'Limepay-SecretKey': KEYS.soloSk,
          'content-type': type,
          '0': 'Content-Type: application/json',
          '1': `Content-Length: ${body.length}`,
        },
        raw: body,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.merchantOrderId).toMatch(/^ordr_/);
    });

  it('refuses a body that is not JSON, naming the body, whatever its type', async () => {
    const res = await call(sb.legacyUrl, 'POST', '/orders', {
      headers: { 'Limepay-SecretKey': KEYS.soloSk, 'content-type': 'application/x-www-form-urlencoded' },
      raw: 'internalOrderId=1&amount=2',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 'invalid_request', detail: 'body: malformed JSON' });
  });

  it('answers Authorization: Basic with 401 unsupported_credentials', async () => {
    const res = await call(sb.legacyUrl, 'POST', '/refunds', {
      headers: { authorization: `Basic ${Buffer.from(`${KEYS.soloSk}:`).toString('base64')}` },
      body: {},
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCode: 'unsupported_credentials' });
  });
});
