import type { FastifyRequest } from 'fastify';
import { PaybridgeError } from '../errors.js';

/** An oversized body is read and discarded up to this many bytes (or four times the limit) before the 413. */
const DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * The raw body of a legacy request, read once, as text: the translator parses it once, as JSON,
 * whatever Content-Type the client declared (deployed clients declare form-urlencoded, text/plain
 * or a charset; legacy-api.md section 0). Larger than the limit: 413.
 */
export async function readBody(request: FastifyRequest, limit: number): Promise<string | undefined> {
  const stream = request.body as NodeJS.ReadableStream | undefined;
  if (stream === undefined || stream === null) return undefined;
  const tooLarge = () => new PaybridgeError('payload_too_large', `body: exceeds ${limit} bytes`);
  const declared = Number(request.headers['content-length'] ?? NaN);
  // read (and discard) the rest of an oversized body up to a bound, so the client can read the 413
  // instead of a broken pipe; past the bound the connection is closed
  const drainUpTo = Math.max(limit * 4, DRAIN_BYTES);
  if (declared > drainUpTo) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  let over = declared > limit;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) over = true;
    if (over) {
      if (size > drainUpTo) throw tooLarge();
      continue;
    }
    chunks.push(chunk);
  }
  if (over) throw tooLarge();
  if (size === 0) return undefined;
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}
