// One autocannon run in its own process (the benchmark pins it beside the upstream):
// `node load.mjs '<autocannon options as JSON>'` prints one JSON line of figures.
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]);
const result = await autocannon(options);
process.stdout.write(`${JSON.stringify({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  requests: result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  non2xx: result.non2xx,
  statusCodeStats: result.statusCodeStats,
})}\n`);
