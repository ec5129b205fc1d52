/**
 * What an operator puts in front of the gateway so that a client with a hard-coded legacy host name
 * reaches it (legacy-api.md section 0, base URLs): the name routed to the gateway and TLS terminated
 * with `X-Forwarded-Proto` and `X-Forwarded-Host`. Here DNS is stood in for by a forward proxy the
 * clients' HTTP stacks tunnel through (CONNECT), and the certificate is a self-signed one made with
 * openssl, which the clients are told to trust.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';

export const LEGACY_HOSTS = ['api.sandbox.limepay.com.au', 'www.sandbox.limepay.com.au', 'api.limepay.com.au'];

/** A self-signed certificate for the legacy host names, written to `dir` (cert.pem, key.pem). */
export function makeCertificate(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
      '-subj',
      `/CN=${LEGACY_HOSTS[0]}`,
      '-addext',
      `subjectAltName=${[...LEGACY_HOSTS.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',')}`,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

/** Forwards one request to the gateway, as a TLS-terminating proxy does. */
function forward(gateway, req, res) {
  const headers = { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-host': req.headers.host ?? '' };
  const url = new URL(req.url, 'http://placeholder');
  const out = request(
    { host: gateway.hostname, port: gateway.port, method: req.method, path: url.pathname + url.search, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', (err) => {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`front: ${err.message}`);
  });
  req.pipe(out);
}

/**
 * Starts the TLS terminator and the proxy. Resolves to the proxy's URL, the terminator's own URL (for a
 * stack that cannot tunnel through a proxy: WordPress's fsockopen transport) and a close().
 */
export async function startFront(gatewayUrl, certificate) {
  const gateway = new URL(gatewayUrl);
  const tls = createHttpsServer(
    { cert: readFileSync(certificate.cert), key: readFileSync(certificate.key) },
    (req, res) => forward(gateway, req, res),
  );
  const tlsPort = await listen(tls);
  // tunnels only: every client here either CONNECTs or is sent to the terminator itself
  const proxy = createHttpServer((req, res) => res.writeHead(405, { allow: 'CONNECT' }).end());
  proxy.on('connect', (req, client, head) => {
    const host = req.url.split(':')[0];
    if (!LEGACY_HOSTS.includes(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(tlsPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(proxy);
  return {
    proxy: `http://127.0.0.1:${proxyPort}`,
    tls: `https://127.0.0.1:${tlsPort}`,
    close: async () => {
      for (const server of [tls, proxy]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
