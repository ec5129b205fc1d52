import type { IncomingMessage } from 'node:http';
import { PaybridgeError } from '../errors.js';

/** An oversized body is read and discarded up to this many bytes (or four times the limit) before the 413. */
const DRAIN_BYTES = 8 * 1024 * 1024;

/** Whether a request declares a body at all (a length, or chunked). */
export const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * The raw body of a request, read once, as bytes: a legacy body is then parsed once, as JSON,
 * whatever Content-Type the client declared (deployed clients declare form-urlencoded, text/plain
 * or a charset; legacy-api.md section 0); a passthrough sends it on as it came. Larger than the
 * limit: 413, after reading (and discarding) the rest up to a bound, so the client can read the
 * answer instead of a broken pipe; past the bound the connection is closed.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (!hasBody(req)) return Promise.resolve(undefined);
  const tooLarge = () => new PaybridgeError('payload_too_large', `body: exceeds ${limit} bytes`);
  const declared = Number(req.headers['content-length'] ?? NaN);
  const drainUpTo = Math.max(limit * 4, DRAIN_BYTES);
  if (declared > drainUpTo) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = declared > limit;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
      else if (size > drainUpTo) finish(tooLarge());
    };
    const onEnd = () => {
      if (over) return finish(tooLarge());
      finish(null, size === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    // a client that gives up mid-body (an 'aborted' error, or a close): its failure, not the gateway's
    const gaveUp = () =>
      finish(new PaybridgeError('invalid_request', 'body: the client closed the connection before sending it all'));
    const onError = gaveUp;
    const onClose = gaveUp;
    function finish(err: Error | null, body?: Buffer): void {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) reject(err);
      else resolve(body);
    }
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
