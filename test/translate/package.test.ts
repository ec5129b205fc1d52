/**
 * paybridge as a library people pick up: README's Library mode section followed as printed, in a new
 * directory outside this checkout (its commands in order, its tsconfig.json and app.ts as files, the
 * output it says the program prints), and the package it installed imports from plain JavaScript with
 * its declared dependencies and runs its bin.
 */
import { exec, execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';

const sh = promisify(exec);
const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  devDependencies: Record<string, string>;
};

/** README's line that clones and packs paybridge: run here on this checkout (see `cloneAndPack`). */
const CLONE = 'git clone <this repository> paybridge && (cd paybridge && npm install && npm pack)';

type Step = { commands: string[] } | { file: string; content: string };

/**
 * The Library mode section as steps, in order: each indented block of commands, and each fenced
 * block as the file the paragraph before it names first (`tsconfig.json`: ...); and the output the
 * section says the program prints.
 */
function librarySection(): { steps: Step[]; prints: string } {
  const start = README.indexOf('\n## Library mode\n');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  const steps: Step[] = [];
  let named: string | undefined;
  const lines = section.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      const end = lines.indexOf('```', i + 1);
      expect(named, `the paragraph before the block at "${line}" names its file`).toBeDefined();
      steps.push({ file: named!, content: `${lines.slice(i + 1, end).join('\n')}\n` });
      named = undefined;
      i = end;
    } else if (line.startsWith('    ')) {
      const last = steps.at(-1);
      if (last && 'commands' in last && lines[i - 1]!.startsWith('    ')) last.commands.push(line.trim());
      else steps.push({ commands: [line.trim()] });
    } else if (line.trim() !== '' && (i === 0 || lines[i - 1]!.trim() === '')) {
      // a paragraph: the file a following block is, if it starts by naming one
      named = /^`([\w.-]+\.\w+)`/.exec(line)?.[1];
    }
  }
  const prints = /prints `([^`]+)`/.exec(section.slice(section.lastIndexOf('\n    ')))?.[1];
  expect(prints, 'the section says what the program prints').toBeDefined();
  return { steps, prints: prints! };
}

/**
 * What README's clone line leaves in the directory, from this checkout: a clone (its sources are what
 * the tsconfig's include must keep tsc away from) holding the tarball `npm pack` makes. The tarball is
 * packed from the working tree, already built by npm test, instead of a second install and build in the clone.
 */
async function cloneAndPack(dir: string): Promise<void> {
  await run('git', ['clone', '--quiet', ROOT, 'paybridge'], { cwd: dir });
  const packed = mkdtempSync(join(tmpdir(), 'paybridge-pack-'));
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packed], { cwd: ROOT });
  const tarball = readdirSync(packed).find((f) => f.endsWith('.tgz'))!;
  renameSync(join(packed, tarball), join(dir, 'paybridge', tarball));
}

/** README's section followed once in a new directory; resolves with the directory and what the last command printed. */
let followed: Promise<{ dir: string; stdout: string }> | undefined;
function followReadme(): Promise<{ dir: string; stdout: string }> {
  followed ??= (async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'paybridge-library-')), 'app');
    mkdirSync(dir);
    let stdout = '';
    for (const step of librarySection().steps) {
      if ('file' in step) {
        writeFileSync(join(dir, step.file), step.content);
        continue;
      }
      for (const command of step.commands) {
        if (command === CLONE) {
          await cloneAndPack(dir);
          continue;
        }
        const result = await sh(command, { cwd: dir, timeout: 240_000 }).catch(
          (err: { stdout?: string; stderr?: string; message: string }) => {
            throw new Error(
              `README's \`${command}\` failed in ${dir}: ${err.stdout ?? ''}${err.stderr ?? err.message}`,
            );
          },
        );
        stdout = result.stdout;
      }
    }
    return { dir, stdout };
  })();
  return followed;
}

describe('library mode, as README prints it', () => {
  it('names the TypeScript paybridge is built with, the types of its Node floor and the version npm pack makes', () => {
    const commands = librarySection().steps.flatMap((s) => ('commands' in s ? s.commands : []));
    expect(commands).toContain(CLONE);
    expect(commands).toContain(`npm install ./paybridge/paybridge-${PKG.version}.tgz undici@7`);
    expect(commands).toContain(
      `npm install --save-dev typescript@${PKG.devDependencies.typescript} @types/node@${/^>=(\d+)\./.exec(PKG.engines.node)![1]}`,
    );
    const tsconfig = librarySection().steps.find(
      (s): s is { file: string; content: string } => 'file' in s && s.file === 'tsconfig.json',
    )!;
    expect(
      (JSON.parse(tsconfig.content) as { include?: string[] }).include,
      "tsconfig.json's include: the user's own code",
    ).toBeDefined();
  });

  it('works as printed in a new directory: the commands install what they need, tsc checks app.ts with the tsconfig shown, it prints what README says', async () => {
    const { stdout } = await followReadme();
    expect(stdout.trim().split('\n').at(-1)).toBe(librarySection().prints);
  }, 420_000);

  it('the installed package imports from plain JavaScript with its declared dependencies, and its bin runs', async () => {
    const { dir } = await followReadme();
    writeFileSync(
      join(dir, 'main.js'),
      `import { createTranslator, ERRORS } from 'paybridge';
const current = await createTranslator().toCurrent({ method: 'POST', path: '/refunds', headers: { 'Limepay-SecretKey': 'sandbox_sk_x_12345678' }, body: { transactionId: 'tran_1', refundAmount: { amount: 5, currency: 'AUD' } } });
console.log(current.method, current.path, JSON.stringify(current.body), typeof ERRORS.invalid_request.status);`,
    );
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: dir });
    expect(stdout.trim()).toBe('PATCH /transactions/tran_1 {"CreateRefund":{"refundAmount":5}} number');
    const bin = await run(process.execPath, [join(dir, 'node_modules/paybridge/dist/src/cli.js'), 'routes'], {
      cwd: dir,
    });
    expect(bin.stdout).toMatch(new RegExp(`^${LEGACY_ROUTES.at(-1)!.id}\\s`, 'm'));
  }, 420_000);
});
