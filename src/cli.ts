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
import { packageVersion } from './package-version.js';

/** A command's usage text and its runner, loaded when the command is run or its help asked for. */
interface Loaded {
  usage: string;
  run: (argv: string[]) => Promise<void>;
}

// each command's module is imported only when that command runs (or prints its help): `report` or
// `rules` need neither the gateway nor the sandbox, and a CLI start pays for what it uses
const COMMANDS: [string, string, () => Promise<Loaded>][] = [
  [
    'serve',
    'run the gateway (the embedded sandbox when no upstream is configured)',
    async () => import('./cli/serve.js').then((m) => ({ usage: m.SERVE_USAGE, run: m.runServe })),
  ],
  [
    'sandbox',
    'run the in-memory payments service, current and legacy faces',
    async () => import('./cli/sandbox.js').then((m) => ({ usage: m.SANDBOX_USAGE, run: m.runSandbox })),
  ],
  [
    'translate',
    'print the current request for a legacy one read on stdin',
    async () => import('./cli/translate.js').then((m) => ({ usage: m.TRANSLATE_USAGE, run: m.runTranslate })),
  ],
  [
    'routes',
    'print the legacy route table (one route per mapping) and the changelog of the mappings',
    async () => import('./cli/translate.js').then((m) => ({ usage: m.ROUTES_USAGE, run: m.runRoutes })),
  ],
  [
    'report',
    'merge shadow records into a per-route readiness report',
    async () => import('./cli/report.js').then((m) => ({ usage: m.REPORT_USAGE, run: m.runReport })),
  ],
  [
    'openapi',
    'print the OpenAPI 3.1 document of one generation',
    async () => import('./cli/openapi.js').then((m) => ({ usage: m.OPENAPI_USAGE, run: m.runOpenapi })),
  ],
  [
    'replay',
    'run a replay corpus through this build: what would change, per route',
    async () => import('./cli/replay.js').then((m) => ({ usage: m.REPLAY_USAGE, run: m.runReplay })),
  ],
  [
    'rules',
    'print the Prometheus rules of shadow readiness for a configuration',
    async () => import('./cli/rules.js').then((m) => ({ usage: m.RULES_USAGE, run: m.runRules })),
  ],
];

/** node:util parseArgs refusals are usage errors: they name the flag. */
const USAGE_CODES = new Set([
  'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
  'ERR_PAYBRIDGE_USAGE',
]);

/** The program; `loaded`: the commands whose module is loaded (the one run, or the one whose help is asked for). */
function program(loaded: ReadonlyMap<string, Loaded>): Command {
  const cli = new Command('paybridge')
    .description('Migration gateway between the legacy and current generations of a payments API.')
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpCommand('help [command]', 'show the help of a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureHelp({ helpWidth: 120 })
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 the command failed, 2 a usage error (unknown command or flag); report: 3 when the verdicts fail its --fail-on gate.',
    );
  for (const [name, summary] of COMMANDS) {
    const command = loaded.get(name);
    const sub = cli.command(name).summary(summary).description(summary).usage('[flags]');
    if (command) sub.addHelpText('after', `\n${command.usage}`);
    sub
      .helpOption('-h, --help', 'show this help')
      .allowUnknownOption()
      .allowExcessArguments()
      .action(async () => {
        const argv = process.argv.slice(process.argv.indexOf(name) + 1);
        try {
          // loaded: commander runs the action of the command named first on the command line, the one loaded
          await command!.run(argv);
        } catch (err) {
          const e = err as Error & { code?: string };
          if (e.code && USAGE_CODES.has(e.code)) {
            process.stderr.write(`paybridge ${name}: ${e.message} (paybridge ${name} --help lists the flags)\n`);
            process.exit(2);
          }
          throw err;
        }
      });
  }
  return cli;
}

const [first, second] = process.argv.slice(2);
if (first === 'help' && second !== undefined && !COMMANDS.some(([name]) => name === second)) {
  // commander would print the general help and exit 2 without a word on what was wrong
  process.stderr.write(
    `paybridge help: unknown command '${second}' (commands: ${COMMANDS.map(([name]) => name).join(', ')})\n`,
  );
  process.exit(2);
}

// the command commander will run (the first word that is not a flag), or the one `help` names
const words = process.argv.slice(2).filter((word) => !word.startsWith('-'));
const wanted = COMMANDS.find(([name]) => name === (words[0] === 'help' ? words[1] : words[0]));
const loaded = new Map<string, Loaded>(wanted ? [[wanted[0], await wanted[2]()]] : []);

program(loaded)
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CommanderError) {
      // help and version print and exit 0; anything else commander refused is a usage error
      process.exit(err.exitCode === 0 ? 0 : 2);
    }
    process.stderr.write(`paybridge: ${(err as Error).message}\n`);
    process.exit(1);
  });
