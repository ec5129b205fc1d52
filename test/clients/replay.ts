/** What the client replays share: where they send, what they record, and the browser-side stand-ins. */
import { expect } from 'vitest';
import { KEYS } from '../helpers/sandbox.js';
import { send, type WireAnswer, type WireRequest } from './wire.js';

export interface Target {
  /** The base URL the client is configured with: the gateway, or the sandbox's legacy face. */
  base: string;
}

/** One call a client made and what came back, for comparing two targets. */
export interface Exchange {
  step: string;
  status: number;
  body: unknown;
}

export class Recorder {
  readonly exchanges: Exchange[] = [];
  constructor(readonly target: Target) {}

  /** Sends the request as written and records the answer under `step`. */
  async call(step: string, request: WireRequest): Promise<WireAnswer> {
    const answer = await send(this.target.base, request);
    this.exchanges.push({ step, status: answer.status, body: answer.json ?? answer.text });
    return answer;
  }
}

/**
 * The checkout web component's part, done as the browser would: a payment token from the card the
 * shopper typed (the sandbox's card-token instrument, with the public key, at the client's base URL).
 */
export async function browserCardToken(target: Target, cardNumber: string): Promise<string> {
  const res = await fetch(`${target.base}/sandbox/card-tokens`, {
    method: 'POST',
    headers: { 'Limepay-PublicKey': KEYS.soloPk, 'content-type': 'application/json' },
    body: JSON.stringify({ cardNumber }),
  });
  const body = (await res.json()) as { paymentTokenId: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.paymentTokenId;
}

/** The component's createPaymentSource: a card saved for the signed-in customer. */
export async function browserSavedCard(target: Target, customerId: string, cardNumber: string): Promise<string> {
  const res = await fetch(`${target.base}/sandbox/card-sources`, {
    method: 'POST',
    headers: { 'Limepay-SecretKey': KEYS.soloSk, 'content-type': 'application/json' },
    body: JSON.stringify({ customerId, cardNumber }),
  });
  const body = (await res.json()) as { paymentSourceId: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.paymentSourceId;
}

/**
 * Test setup between replays, not a client call: the sandbox blocks a card at a merchant after three
 * declines, and every replay declines the same test card, so blocks are lifted through the current API.
 */
export async function unblockCards(currentBase: string): Promise<void> {
  const headers = { authorization: `Bearer ${KEYS.soloSk}`, 'content-type': 'application/json' };
  const list = (await (await fetch(`${currentBase}/sources/blockedcards`, { headers })).json()) as {
    cardBlockId: string;
    status?: string;
  }[];
  for (const block of list)
    await fetch(`${currentBase}/sources/blockedcards/${block.cardBlockId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ UnblockCard: {} }),
    });
}
