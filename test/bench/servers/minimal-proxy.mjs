// The floor of a Node proxy, the baseline of the gateway benchmark: node:http + one undici Pool,
// each request piped with pool.stream, no parsing, no timers, nothing else. `minimal-proxy.mjs <upstream>
// [n]`: n microseconds of busy work before each answer (test/bench/work.mjs: what a known amount of
// work costs here); an argument, not an environment variable, so that no setting of the shell can
// slow the benchmarks' baseline.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const upstream = process.argv[2];
const WORK_MS = Number(process.argv[3] ?? 0) / 1000;
const pool = new Pool(upstream, { connections: 128, pipelining: 1 });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'proxy-connection']);

const server = createServer((req, res) => {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k)) headers[k] = v;
  pool.stream(
    { path: req.url, method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? null : req },
    ({ statusCode, headers: answer }) => {
      if (WORK_MS > 0) for (const end = performance.now() + WORK_MS; performance.now() < end;);
      for (const k of HOP) delete answer[k];
      res.writeHead(statusCode, answer);
      return res;
    },
    (err) => {
      if (err && !res.headersSent) {
        res.statusCode = 502;
        res.end();
      }
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`minimal listening http://127.0.0.1:${server.address().port}\n`),
);
process.on('SIGTERM', () => {
  server.close();
  pool.close().finally(() => process.exit(0));
});
