// The baseline of the gateway benchmark: a plain @fastify/http-proxy passthrough, nothing else.
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';

const upstream = process.argv[2];
const app = Fastify({ logger: false });
await app.register(proxy, { upstream });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`proxy listening ${url}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
