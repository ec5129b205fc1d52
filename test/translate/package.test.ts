/**
 * paybridge as a library people can pick up: README's install lines and snippet work in a fresh
 * TypeScript ESM project (types compose with undici's fetch, no casts on the dispatcher); `npm pack`
 * gives a package that installs and imports in a fresh directory with its dependencies declared.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('library mode, as a user installs it', () => {
  /** README's install lines as a user runs them: the packed tarball and undici, into a fresh ESM project. */
  async function freshProject(extra: string[] = [], undici = 'undici'): Promise<string> {
    const out = mkdtempSync(join(tmpdir(), 'paybridge-pack-'));
    await run(NPM, ['pack', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT });
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'))!;
    const app = join(out, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-paybridge', private: true, type: 'module' }));
    await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(out, tarball), undici, ...extra], { cwd: app, timeout: 150_000 });
    return app;
  }

  it("type-checks and runs README's snippet in a fresh TypeScript ESM project that installed what README says", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const install = /^\s*npm install (\S+\.tgz) (undici(?:@\S+)?)$/m.exec(readme);
    expect(install, 'README gives the install line of library mode').not.toBeNull();
    const app = await freshProject(['@types/node@20'], install![2]!);
    writeFileSync(join(app, 'snippet.ts'), snippet);
    // a user's tsconfig for Node ESM: top-level await needs module nodenext and "type": "module"
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, types: ['node'], outDir: 'out' }, files: ['snippet.ts'] }));
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc in the fresh project: ${err.stdout ?? String(err)}`);
    });
    const { stdout } = await run(process.execPath, [join(app, 'out', 'snippet.js')], { cwd: app });
    expect(stdout.trim()).toBe('200 readme-1');
  }, 240_000);

  it('packs, installs in a fresh directory with its declared dependencies, and imports', async () => {
    const app = await freshProject();
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
