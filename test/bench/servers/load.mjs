// One autocannon run in its own process (the benchmark pins it beside the upstream):
// `node load.mjs '<autocannon options as JSON>'` prints one JSON line of figures.
// `sequenceFile` (an option of ours): a JSON file of requests (`{ path, body }` each, body as text),
// sent in turn, each exactly once: writes that cannot be repeated, such as a pay per prepared order. Such
// a run lasts as long as its requests take, often a few seconds: its req/s is requests over the time from
// the start to the last answer, not autocannon's figures (the mean of per-second samples, where a short
// run's last, partial second weighs as a whole one; its duration ends at the next whole second).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const { sequenceFile, ...options } = JSON.parse(process.argv[2]);
if (sequenceFile) {
  const sequence = JSON.parse(readFileSync(sequenceFile, 'utf8'));
  let next = 0;
  options.amount = sequence.length;
  options.requests = [{ setupRequest: (req) => ({ ...req, ...sequence[next++] }) }];
}
const started = performance.now();
let lastAnswer = started;
const instance = autocannon(options);
if (sequenceFile) instance.on('response', () => (lastAnswer = performance.now()));
const result = await instance;
process.stdout.write(
  `${JSON.stringify({
    rps: sequenceFile ? result.requests.total / ((lastAnswer - started) / 1000) : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodeStats: result.statusCodeStats,
  })}\n`,
);
