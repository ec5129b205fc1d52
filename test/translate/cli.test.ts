import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWriteRoute } from '../../src/translate/define.js';
import { createTranslator } from '../../src/translate/index.js';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { BIN } from '../helpers/spawn.js';
import { KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

function run(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('paybridge translate', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('prints the current request for a legacy one read on stdin', async () => {
    const legacy = {
      method: 'post',
      path: '/platforms/mktp_demo/refunds',
      headers: { 'Limepay-Token': KEYS.marketplace },
      body: { transactionId: 'tran_42', refundAmount: { amount: 250, currency: 'AUD' } },
    };
    const { code, stdout } = await run(['translate'], JSON.stringify(legacy));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      method: 'PATCH',
      path: '/transactions/tran_42',
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${KEYS.marketplace}`,
        'marketplace-id': 'mktp_demo',
        'content-type': 'application/json',
      },
      body: { CreateRefund: { refundAmount: 250 } },
    });
  });

  it('keeps the query string in path and leaves body out when there is none', async () => {
    const { stdout } = await run(
      ['translate'],
      JSON.stringify({
        method: 'GET',
        path: '/merchants/mcht_solo/customers?email=a%40b.example',
        headers: { 'limepay-secretkey': KEYS.soloSk },
      }),
    );
    const current = JSON.parse(stdout);
    expect(current.path).toBe('/customers?merchantId=mcht_solo&emailAddress=a%40b.example');
    expect(current).not.toHaveProperty('body');
  });

  it('prints the legacy error object and exits 1 for a request it cannot translate', async () => {
    const bad = await run(
      ['translate'],
      JSON.stringify({
        method: 'POST',
        path: '/orders',
        headers: { 'limepay-secretkey': KEYS.soloSk },
        body: { internalOrderId: 'x' },
      }),
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
      detail: expect.stringMatching(/^paymentAmount: /),
    });
    const notJson = await run(['translate'], 'not json');
    expect(notJson.code).toBe(1);
    expect(JSON.parse(notJson.stdout)).toMatchObject({ errorCode: 'invalid_request' });
  });

  it('resolves a merchant token with --current-url, --merchant-tokens and --service-key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paybridge-tokens-'));
    const file = join(dir, 'tokens.json');
    writeFileSync(file, JSON.stringify({ mtok_alpha_merchant_token: 'mcht_alpha' }));
    const request = JSON.stringify({
      method: 'POST',
      path: '/orders',
      headers: { 'Limepay-MerchantToken': 'mtok_alpha_merchant_token' },
      body: legacyOrder(),
    });
    const resolved = await run(
      ['translate', '--current-url', sb.currentUrl, '--merchant-tokens', file, '--service-key', KEYS.marketplace],
      request,
    );
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout).headers.authorization).toBe(`Bearer ${KEYS.alphaPk}`);
    const unconfigured = await run(['translate'], request);
    expect(unconfigured.code).toBe(1);
    expect(JSON.parse(unconfigured.stdout)).toMatchObject({ statusCode: 401, errorCode: 'unauthenticated' });
  });
});

describe('paybridge routes', () => {
  it('prints every legacy route with its current call and mapping file, and a changelog from the descriptions', async () => {
    const { code, stdout } = await run(['routes']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^L7\s+POST \/refunds\s+->\s+PATCH \/transactions\/\{transactionId\}\s+mappings\/refunds\.ts$/m,
    );
    expect(stdout).toMatch(/^L27\s+POST \/transactions\/\{transactionId\}\/transfers:reverse\s+->\s+PATCH/m);
    expect(stdout).toContain('Changelog');
    expect(stdout).toMatch(/^- L13 POST \/customers\/consumer: Create or update a consumer customer/m);
    const json = JSON.parse((await run(['routes', '--json'])).stdout);
    expect(json.map((r: { id: string }) => r.id)).toEqual(LEGACY_ROUTES.map((r) => r.id));
    expect(json.every((r: { file: string }) => r.file.startsWith('mappings/'))).toBe(true);
  });

  it("--gateway prints a running gateway's live table by route id, write safety on writes only", async () => {
    const token = 'operator-token-routes-0001';
    const gw = await startGateway({
      routes: { '*': 'current', L3: 'shadow' },
      operatorToken: token,
      shadow: { writeSafety: { L7: 'validate' } },
    });
    try {
      const { code, stdout } = await run(['routes', '--gateway', gw.url, '--operator-token', token]);
      expect(code).toBe(0);
      const rows = stdout.split('\n').filter((l) => /^L\d+\s/.test(l));
      expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(LEGACY_ROUTES.map((r) => r.id));
      // what shadow compares as a write: every method but GET, unless the mapping declares it read-only
      const writes = new Set(
        createTranslator()
          .routes.mappings.filter(({ mapping }) => isWriteRoute(mapping))
          .map(({ mapping }) => mapping.route),
      );
      expect(writes.size).toBeGreaterThan(5);
      for (const row of rows) {
        const id = row.split(/\s+/)[0]!;
        if (writes.has(id)) expect(row, id).toMatch(/ writes: (readback|validate)$/);
        else expect(row, id).not.toContain('writes:');
      }
      expect(rows.find((l) => l.startsWith('L7 '))).toMatch(/ writes: validate$/);
      expect(rows.find((l) => l.startsWith('L3 '))).toMatch(
        /^L3\s+GET \/orders\/\{merchantOrderId\}\s+shadow\s+sample 1$/,
      );
      // the table as the gateway serves it: by route id, a read with no write safety
      const table = (await (
        await fetch(`${gw.url}/_paybridge/routes`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { routes: { route: string; writeSafety?: string }[] };
      expect(table.routes.map((r) => r.route)).toEqual(LEGACY_ROUTES.map((r) => r.id));
      expect(table.routes.filter((r) => 'writeSafety' in r).map((r) => r.route)).toEqual(
        LEGACY_ROUTES.map((r) => r.id).filter((id) => writes.has(id)),
      );
      // the read-only POST (a calculation) shows none either
      expect(
        rows.find((l) =>
          l.startsWith(`${[...LEGACY_ROUTES].find((r) => r.method === 'POST' && !writes.has(r.id))!.id} `),
        ),
      ).not.toContain('writes:');
    } finally {
      await gw.close();
    }
  });
});
