#!/usr/bin/env node
/** paybridge serve | sandbox | report | translate | routes | openapi */
import { OPENAPI_USAGE, runOpenapi } from './cli/openapi.js';
import { REPORT_USAGE, runReport } from './cli/report.js';
import { runSandbox, SANDBOX_USAGE } from './cli/sandbox.js';
import { runServe, SERVE_USAGE } from './cli/serve.js';
import { ROUTES_USAGE, runRoutes, runTranslate, TRANSLATE_USAGE } from './cli/translate.js';

const COMMANDS: Record<string, { usage: string; run: (argv: string[]) => Promise<void> }> = {
  serve: { usage: SERVE_USAGE, run: runServe },
  sandbox: { usage: SANDBOX_USAGE, run: runSandbox },
  translate: { usage: TRANSLATE_USAGE, run: runTranslate },
  routes: { usage: ROUTES_USAGE, run: runRoutes },
  report: { usage: REPORT_USAGE, run: runReport },
  openapi: { usage: OPENAPI_USAGE, run: runOpenapi },
};

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command || rest.includes('--help')) {
    const usage = command ? command.usage : Object.values(COMMANDS).map((c) => c.usage).join('\n\n');
    process.stdout.write(`${usage}\n`);
    if (!command && name !== '--help' && name !== undefined) process.exitCode = 2;
    return;
  }
  await command.run(rest);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`paybridge: ${(err as Error).message}\n`);
  process.exit(1);
});
