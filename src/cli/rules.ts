import { parseArgs } from 'node:util';
import { configSchema, readJsonFile } from '../config.js';
import { prometheusRules } from '../observability/rules.js';

export const RULES_USAGE = `paybridge rules [--config FILE]
  Prints the Prometheus rules of shadow readiness (YAML) for a gateway configuration: per route
  paybridge:shadow_route_state (0 collecting, 1 ready, 2 mismatch, 3 validated) and
  paybridge:shadow_route_ready (1 after shadow.readyAfter comparisons of answers within
  shadow.readyWindow up to the route's newest comparison, none unexplained; else 0): the verdict the
  report gives. Without --config, the defaults (deploy/prometheus/paybridge-rules.yml).`;

export async function runRules(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { config: { type: 'string' } }, strict: true });
  const { shadow } = configSchema.parse(values.config ? readJsonFile('--config', values.config) : {});
  process.stdout.write(prometheusRules({ readyAfter: shadow.readyAfter, window: shadow.readyWindow }));
}
