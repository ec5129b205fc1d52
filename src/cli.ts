#!/usr/bin/env node
/**
 * paybridge serve | sandbox | report | translate | routes | openapi. commander gives the program its
 * commands, per-command help, `--version` and the words for an unknown command; each command parses
 * its own flags strictly (node:util parseArgs) and an unknown or malformed flag is named.
 *
 * Exit codes: 0 done; 1 the command failed (an invalid configuration or fixture file, a record that
 * cannot be read, a request the translator refuses); 2 a usage error (unknown command or flag, a flag
 * without its value); 3 `report`'s verdicts fail its --fail-on gate.
 */
import { Command, CommanderError } from 'commander';
import { OPENAPI_USAGE, runOpenapi } from './cli/openapi.js';
import { REPLAY_USAGE, runReplay } from './cli/replay.js';
import { REPORT_USAGE, runReport } from './cli/report.js';
import { RULES_USAGE, runRules } from './cli/rules.js';
import { runSandbox, SANDBOX_USAGE } from './cli/sandbox.js';
import { runServe, SERVE_USAGE } from './cli/serve.js';
import { ROUTES_USAGE, runRoutes, runTranslate, TRANSLATE_USAGE } from './cli/translate.js';
import { packageVersion } from './openapi/documents.js';

const COMMANDS: [string, string, string, (argv: string[]) => Promise<void>][] = [
  ['serve', 'run the gateway (the embedded sandbox when no upstream is configured)', SERVE_USAGE, runServe],
  ['sandbox', 'run the in-memory payments service, current and legacy faces', SANDBOX_USAGE, runSandbox],
  ['translate', 'print the current request for a legacy one read on stdin', TRANSLATE_USAGE, runTranslate],
  ['routes', 'print the legacy route table (one route per mapping) and the changelog of the mappings', ROUTES_USAGE, runRoutes],
  ['report', 'merge shadow records into a per-route readiness report', REPORT_USAGE, runReport],
  ['openapi', 'print the OpenAPI 3.1 document of one generation', OPENAPI_USAGE, runOpenapi],
  ['replay', 'run a replay corpus through this build: what would change, per route', REPLAY_USAGE, runReplay],
  ['rules', 'print the Prometheus rules of shadow readiness for a configuration', RULES_USAGE, runRules],
];

/** node:util parseArgs refusals are usage errors: they name the flag. */
const USAGE_CODES = new Set(['ERR_PARSE_ARGS_UNKNOWN_OPTION', 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', 'ERR_PAYBRIDGE_USAGE']);

export function program(): Command {
  const cli = new Command('paybridge')
    .description('Migration gateway between the legacy and current generations of a payments API.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpCommand('help [command]', 'show the help of a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureHelp({ helpWidth: 120 })
    .addHelpText('after', '\nExit codes: 0 done, 1 the command failed, 2 a usage error (unknown command or flag); report: 3 when the verdicts fail its --fail-on gate.');
  for (const [name, summary, usage, run] of COMMANDS)
    cli
      .command(name)
      .summary(summary)
      .description(summary)
      .usage('[flags]')
      .addHelpText('after', `\n${usage}`)
      .helpOption('-h, --help', 'show this help')
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async () => {
        const argv = process.argv.slice(process.argv.indexOf(name) + 1);
        try {
          await run(argv);
        } catch (err) {
          const e = err as Error & { code?: string };
          if (e.code && USAGE_CODES.has(e.code)) {
            process.stderr.write(`paybridge ${name}: ${e.message} (paybridge ${name} --help lists the flags)\n`);
            process.exit(2);
          }
          throw err;
        }
      });
  return cli;
}

const [first, second] = process.argv.slice(2);
if (first === 'help' && second !== undefined && !COMMANDS.some(([name]) => name === second)) {
  // commander would print the general help and exit 2 without a word on what was wrong
  process.stderr.write(`paybridge help: unknown command '${second}' (commands: ${COMMANDS.map(([name]) => name).join(', ')})\n`);
  process.exit(2);
}

program()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CommanderError) {
      // help and version print and exit 0; anything else commander refused is a usage error
      process.exit(err.exitCode === 0 ? 0 : 2);
    }
    process.stderr.write(`paybridge: ${(err as Error).message}\n`);
    process.exit(1);
  });
