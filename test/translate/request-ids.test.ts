import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../src/contract/ids.js';
import { createTranslator } from '../../src/translate/index.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are version 4 UUIDs, none repeated, across many refills of the random pool', () => {
    const seen = new Set<string>();
    // 256 ids a pool: 20,000 ids cross it 78 times
    for (let i = 0; i < 20_000; i++) {
      const id = newRequestId();
      expect(id).toMatch(V4);
      seen.add(id);
    }
    expect(seen.size).toBe(20_000);
  });

  it('use every hex digit in each random position', () => {
    // a digit stuck at one value (a wrong slot or mask) shows as a position with fewer than 16 digits
    const digits = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 2_000; i++) [...newRequestId()].forEach((c, at) => digits[at]!.add(c));
    digits.forEach((set, at) => {
      if ([8, 13, 18, 23].includes(at)) expect([...set]).toEqual(['-']);
      else if (at === 14) expect([...set]).toEqual(['4']);
      else if (at === 19) expect([...set].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(set.size).toBe(16);
    });
  });

  it('are the tracer of a translation error when the caller gave none', async () => {
    const translator = createTranslator();
    const answer = await translator.execute(
      { method: 'GET', path: '/transactions/nope', headers: { 'limepay-secretkey': 'sandbox_sk_abcdef' } },
      async () => {
        throw new Error('not sent: the translation refuses the request first');
      },
    );
    expect(answer.status).toBe(400);
    expect((answer.body as { errorCode: string; tracer: string }).errorCode).toBe('invalid_request');
    expect((answer.body as { tracer: string }).tracer).toMatch(V4);
  });
});
