/**
 * Request bodies: the nesting limit and exact numbers hold on both ways through parseJsonBody, the
 * quick one (few brackets, no sixteen digits in a row) and the character scan the others take.
 * Upstream answers: only a long number, not a long digit run inside a string, takes the exact parse.
 */
import { describe, expect, it } from 'vitest';
import {
  duplicateKey,
  ExactNumber,
  holdsLongNumber,
  MAX_JSON_DEPTH,
  parseJsonBody,
  parseJsonValue,
  stringifyJson,
} from '../../src/contract/json.js';
import { answerBody } from '../../src/translate/answers.js';
import { createTranslator } from '../../src/translate/index.js';
import { refusalOf } from '../helpers/refusal.js';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const refusal = (text: string) => refusalOf(() => parseJsonBody(text));

describe('parseJsonBody', () => {
  it('takes 64 levels of nesting and refuses 65, whatever the brackets inside strings', () => {
    expect(refusal(nested(MAX_JSON_DEPTH))).toBe('accepted');
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toBe('invalid_request: body: nested deeper than 64 levels');
    // more brackets than the limit in all, none deeper than two: the scan takes it
    expect(refusal(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i }))))).toBe('accepted');
    // brackets inside a string count for nothing
    expect(refusal(JSON.stringify({ note: '{'.repeat(500) }))).toBe('accepted');
  });

  it('keeps a number a double cannot hold exactly, and leaves long digit runs inside strings as text', () => {
    const text =
      '{"id":"card 4242424242424242","ref":12345678901234567890,"ratio":0.1000000000000000055511151231257827,"n":1}';
    const body = parseJsonBody(text) as Record<string, unknown>;
    expect(body.id).toBe('card 4242424242424242');
    expect(body.ref).toBeInstanceOf(ExactNumber);
    expect(body.ratio).toBeInstanceOf(ExactNumber);
    expect(body.n).toBe(1);
    expect(stringifyJson(body)).toBe(text);
    // sixteen digits inside a string only: plain numbers stay numbers
    expect(parseJsonBody('{"phone":"0400000000000001","amount":1000}')).toEqual({
      phone: '0400000000000001',
      amount: 1000,
    });
    // and a body with neither takes the quick way to the same value
    expect(parseJsonBody('{"amount":1000,"items":[{"sku":"a"}]}')).toEqual({ amount: 1000, items: [{ sku: 'a' }] });
  });

  it('refuses a key given twice in one object, naming its path, and takes the same key in different objects (docs/decisions.md D-GW-2)', () => {
    expect(refusal('{"paymentAmount":{"amount":100,"currency":"AUD","amount":100000}}')).toBe(
      'invalid_request: body.paymentAmount.amount: the key is given twice; send each field once',
    );
    expect(refusal('{"internalOrderId":"a","internalOrderId":"b"}')).toBe(
      'invalid_request: body.internalOrderId: the key is given twice; send each field once',
    );
    expect(refusal('{"items":[{"sku":"a"},{"sku":"b","sku":"c"}]}')).toBe(
      'invalid_request: body.items[1].sku: the key is given twice; send each field once',
    );
    // spaced from its colon, or escaped differently: still one key
    expect(refusal('{"a" : 1, "a"\n:2}')).toBe('invalid_request: body.a: the key is given twice; send each field once');
    expect(refusal('{"a":1,"\\u0061":2}')).toBe(
      'invalid_request: body.a: the key is given twice; send each field once',
    );
    // the same key in two objects, and `":` inside a string value, are no duplicates
    expect(refusal('{"a":{"x":1},"b":{"x":2},"note":"say \\":\\" twice\\":"}')).toBe('accepted');
    expect(refusal('{"a":[1,{"a":2}],"b":"\\"a\\":"}')).toBe('accepted');
    expect(duplicateKey('[{"k":1},{"k":2},{"k":3,"j":{"k":4,"k":5}}]')).toBe('[2].j.k');
  });

  it('refuses malformed JSON and prototype keys on both ways', () => {
    for (const padding of ['', ` ${'[]'.repeat(70)}`]) {
      expect(refusal(`{"a":1${padding}`)).toBe('invalid_request: body: malformed JSON');
      expect(refusal(`{"__proto__":{"x":1},"p":[${padding.trim().replace(/\]\[/g, '],[')}]}`)).toBe(
        'invalid_request: body: keys __proto__ and constructor.prototype are not allowed',
      );
    }
  });
});

describe('upstream answers (parseJsonValue)', () => {
  // sandbox ids whose process tag and counter are all decimal digits (about one id in 125 while the counter is small)
  const detail =
    '{"purchaseDetails":{"transactionId":"tran_83510927000003612a4b","orderId":"ordr_8351092700000213e4f0","amount":{"minorCurrencyUnits":10000,"currency":"AUD"}},"timelines":[]}';

  it('tells a long number from a long digit run inside a string', () => {
    expect(holdsLongNumber(detail)).toBe(false);
    expect(holdsLongNumber('{"note":"4242424242424242","escaped":"\\"12345678901234567","n":1}')).toBe(false);
    expect(holdsLongNumber('{"ref":12345678901234567890}')).toBe(true);
    expect(holdsLongNumber('[0.1000000000000000055511151231257827]')).toBe(true);
    expect(holdsLongNumber('{"id":"tran_1234567890123456","ref":-12345678901234567}')).toBe(true);
    expect(holdsLongNumber('{"amount":123456789012345}')).toBe(false);
    // a point does not interrupt a number's digits; an exponent does
    expect(holdsLongNumber('{"rate":12345678.123456789}')).toBe(true);
    expect(holdsLongNumber('{"rate":-1.234567890123456e5}')).toBe(true);
    expect(holdsLongNumber('{"rate":1234567.12345678}')).toBe(false);
    expect(holdsLongNumber('{"rate":12345678e12345678}')).toBe(false);
    expect(holdsLongNumber('{"ip":"10.123.123.123.1234567"}')).toBe(false);
    // a run inside a string is skipped whole, and the search goes on past it
    expect(holdsLongNumber('{"a":"x12345678901234567890123.45","b":"e1234567890123456789"}')).toBe(false);
    expect(holdsLongNumber('{"a":"x12345678901234567890123","b":[1,1234567890123456789]}')).toBe(true);
    expect(holdsLongNumber('[1e+1234567890123456]')).toBe(true);
    expect(holdsLongNumber('12345678901234567')).toBe(true);
  });

  it('keeps a number whose digits a decimal point splits, sixteen or more of them, exact', () => {
    for (const text of ['{"rate":12345678.123456789}', '[-9007199.2547409931]']) {
      // JSON.parse alone would lose the last digit
      expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
      expect(stringifyJson(parseJsonValue(text))).toBe(text);
      expect(stringifyJson(parseJsonBody(text))).toBe(text);
    }
    // sixteen digits a double holds stay plain numbers
    expect(parseJsonValue('{"rate":12345678.12345678}')).toEqual({ rate: 12345678.12345678 });
  });

  it('parses an answer whose ids hold sixteen digits as JSON.parse does, exact numbers kept exact', () => {
    expect(parseJsonValue(detail)).toEqual(JSON.parse(detail));
    // lossless-json refuses a key given twice; JSON.parse (and so every answer without a long number) takes the last
    const twice = '{"transactionId":"tran_83510927000003612a4b","status":"authorised","status":"paid"}';
    expect(answerBody(twice, 'application/json')).toEqual({
      transactionId: 'tran_83510927000003612a4b',
      status: 'paid',
    });
    const exact = parseJsonValue('{"id":"tran_83510927000003612a4b","ref":12345678901234567890}') as Record<
      string,
      unknown
    >;
    expect(exact.ref).toBeInstanceOf(ExactNumber);
    expect(stringifyJson(exact)).toBe('{"id":"tran_83510927000003612a4b","ref":12345678901234567890}');
  });
});

/** A legacy L1 body through the translator: 'accepted', or the refusal as `code: detail`. */
const translator = createTranslator();
const refusedFor = (body: string) =>
  translator
    .toCurrent({ method: 'POST', path: '/orders', headers: { 'limepay-secretkey': 'sandbox_sk_solo_x' }, body })
    .then(
      () => 'accepted',
      (err: { code: string; detail: string }) => `${err.code}: ${err.detail}`,
    );

describe('a required field left out', () => {
  it('is a 400 that says so, naming the field and the type it wants', async () => {
    expect(
      await refusedFor(
        '{"paymentAmount":{"amount":100,"currency":"AUD"},"description":"d","billing":{"email":"a@b.co"}}',
      ),
    ).toBe('invalid_request: internalOrderId: required (string)');
    expect(
      await refusedFor(
        '{"internalOrderId":"x1","paymentAmount":{"currency":"AUD"},"description":"d","billing":{"email":"a@b.co"}}',
      ),
    ).toMatch(/^invalid_request: paymentAmount\.amount: required \(/);
    // a field sent as the wrong type keeps zod's words
    expect(
      await refusedFor(
        '{"internalOrderId":"x1","paymentAmount":{"amount":"100","currency":"AUD"},"description":"d","billing":{"email":"a@b.co"}}',
      ),
    ).toMatch(/^invalid_request: paymentAmount\.amount: .*expected number, received string$/);
  });
});

describe('a long number where the contract wants an amount', () => {
  it('is a 400 naming the field, in words a client knows', async () => {
    const body =
      '{"internalOrderId":"x1","paymentAmount":{"amount":12345678901234567890,"currency":"AUD"},"description":"d","billing":{"email":"a@b.co"}}';
    expect(await refusedFor(body)).toBe(
      'invalid_request: paymentAmount.amount: Invalid input: expected number, received a number with more digits than a double holds',
    );
  });
});
