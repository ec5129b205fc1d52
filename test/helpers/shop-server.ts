/**
 * A shop's web server for the browser tests: on its own origin (`http://localhost:<port>`, another
 * origin than the `127.0.0.1` of the services its pages load from), keeping every request it
 * receives so a test can show what reached it (no card data).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ShopRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A WooCommerce checkout page's head, up to the page's heading. */
export const CHECKOUT_HEAD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout – Shop Example</title>
<style>body{font:15px system-ui,sans-serif;margin:24px;max-width:620px}.woocommerce-error{color:#b3261e}form.processing{opacity:.6}</style></head>
<body><h1>Checkout</h1>
`;

/** Status, content type and body of one answer. */
export type ShopAnswer = [number, string, string];

export abstract class ShopServer {
  readonly requests: ShopRequest[] = [];
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        this.handle(req.method ?? '', new URL(req.url ?? '/', 'http://shop'), body).then(
          ([status, type, text]) =>
            res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(text),
          (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.stack),
        );
      });
    });
  }

  protected abstract handle(method: string, url: URL, body: string): Promise<ShopAnswer>;

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    // another origin than the services' 127.0.0.1: the shop is reached by name
    this.url = `http://localhost:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
