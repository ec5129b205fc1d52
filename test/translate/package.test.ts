/**
 * paybridge as a library people can pick up: README's snippet compiles (types compose with undici's
 * fetch, no casts on the dispatcher) and runs; `npm pack` gives a package that installs and imports in
 * a fresh directory with its dependencies declared.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('library mode, as a user installs it', () => {
  it("compiles and runs README's snippet against the package's own types", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    // inside the repository (dist/, not committed), so `paybridge` resolves to this package (its exports and dist types)
    const dir = join(ROOT, 'dist', `readme-snippet-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'snippet.ts'), snippet);
      await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node', '--rootDir', ROOT, '--outDir', join(dir, 'out'), join(dir, 'snippet.ts')], { cwd: ROOT });
      const { stdout } = await run(process.execPath, [join(dir, 'out', 'dist', `readme-snippet-${process.pid}`, 'snippet.js')], { cwd: ROOT });
      expect(stdout.trim()).toBe('200 readme-1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('packs, installs in a fresh directory with its declared dependencies, and imports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'paybridge-pack-'));
    await run(NPM, ['pack', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT });
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    const app = join(out, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-paybridge', private: true, type: 'module' }));
    await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(out, tarball)], { cwd: app, timeout: 150_000 });
    writeFileSync(
      join(app, 'main.js'),
      `import { createTranslator, ERRORS } from 'paybridge';
const current = await createTranslator().toCurrent({ method: 'POST', path: '/refunds', headers: { 'Limepay-SecretKey': 'sandbox_sk_x_12345678' }, body: { transactionId: 'tran_1', refundAmount: { amount: 5, currency: 'AUD' } } });
console.log(current.method, current.path, JSON.stringify(current.body), typeof ERRORS.invalid_request.status);`,
    );
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: app });
    expect(stdout.trim()).toBe('PATCH /transactions/tran_1 {"CreateRefund":{"refundAmount":5}} number');
    // and the bin is there
    const bin = await run(process.execPath, [join(app, 'node_modules/paybridge/dist/src/cli.js'), 'routes'], { cwd: app });
    expect(bin.stdout).toMatch(/^L31\s/m);
  }, 180_000);
});
