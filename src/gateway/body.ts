import type { FastifyRequest } from 'fastify';
import { PaybridgeError } from '../errors.js';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * The raw body of a legacy request, read once, as text: the translator parses it once. Larger than
 * the limit: 413. A body that is not declared as JSON: 400 naming Content-Type (unless it is only
 * being forwarded, as to the legacy upstream in shadow mode, which judges it itself).
 */
export async function readBody(request: FastifyRequest, limit: number, requireJson = true): Promise<string | undefined> {
  const stream = request.body as NodeJS.ReadableStream | undefined;
  if (stream === undefined || stream === null) return undefined;
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > limit) throw new PaybridgeError('payload_too_large', `body: exceeds ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new PaybridgeError('payload_too_large', `body: exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = request.headers['content-type'];
  if (requireJson && (typeof type !== 'string' || !JSON_TYPE.test(type)))
    throw new PaybridgeError('invalid_request', 'Content-Type: expected application/json');
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}
