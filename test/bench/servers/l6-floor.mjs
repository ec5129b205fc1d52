// The floor of a translated L6: the minimal proxy (minimal-proxy.mjs) doing only the work L6 cannot
// skip, and nothing else a gateway does (no credentials, routing, deadlines, logs or metrics): the
// current answer read whole (one undici Pool dispatch collecting it), parsed, shaped into the legacy
// transaction by the gateway's own compiled shape (mappings/shapes.ts, from dist: build first),
// serialised and written with its length in one write. The gateway's L6 against this row is what its
// own plumbing costs; this row against the minimal proxy is what JSON and the shape cost.
// `l6-floor.mjs <current upstream>`; send it a current GET transaction with a Bearer key.
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { LEGACY_TRANSACTION } from '../../../dist/mappings/shapes.js';
import { compileShape } from '../../../dist/src/translate/shape.js';

const upstream = process.argv[2];
const pool = new Pool(upstream, { connections: 128, pipelining: 1 });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'proxy-connection']);
const transaction = compileShape(LEGACY_TRANSACTION);

/** Collects one answer, then hands it to `done`. */
class Collect {
  constructor(done) {
    this.done = done;
    this.chunks = [];
    this.status = 0;
  }
  onRequestStart() {}
  onResponseStart(_controller, status) {
    this.status = status;
  }
  onResponseData(_controller, chunk) {
    this.chunks.push(chunk);
  }
  onResponseEnd() {
    this.done(null, this.status, this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks));
  }
  onResponseError(_controller, err) {
    this.done(err);
  }
}

const server = createServer((req, res) => {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k)) headers[k] = v;
  pool.dispatch(
    { path: req.url, method: req.method, headers, body: null },
    new Collect((err, status, body) => {
      if (err) {
        res.statusCode = 502;
        res.end();
        return;
      }
      const text = JSON.stringify(
        status === 200 ? transaction.backward(JSON.parse(body.toString('utf8'))) : JSON.parse(body.toString('utf8')),
      );
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    }),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`floor listening http://127.0.0.1:${server.address().port}\n`),
);
process.on('SIGTERM', () => {
  server.close();
  pool.close().finally(() => process.exit(0));
});
