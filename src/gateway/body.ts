import type { FastifyRequest } from 'fastify';
import { PaybridgeError } from '../errors.js';

/**
 * The raw body of a legacy request, read once, as text: the translator parses it once, as JSON,
 * whatever Content-Type the client declared (deployed clients declare form-urlencoded, text/plain
 * or a charset; legacy-api.md section 0). Larger than the limit: 413.
 */
export async function readBody(request: FastifyRequest, limit: number): Promise<string | undefined> {
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
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}
