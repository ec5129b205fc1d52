import { parseArgs } from 'node:util';
import { configSchema, readJsonFile } from '../config.js';
import { prometheusRules } from '../observability/rules.js';

export const RULES_USAGE = `paybridge rules [--config FILE]
  Prints the Prometheus rules of shadow readiness (YAML) for a gateway configuration: a route is ready
  (paybridge:shadow_route_ready 1, else 0) after shadow.readyAfter comparisons of answers within
  shadow.readyWindow, none mismatched; the verdict the report gives. Without --config, the defaults
  (deploy/prometheus/paybridge-rules.yml).`;

export async function runRules(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { config: { type: 'string' } }, strict: true });
  const { shadow } = configSchema.parse(values.config ? readJsonFile('--config', values.config) : {});
  process.stdout.write(prometheusRules({ readyAfter: shadow.readyAfter, window: shadow.readyWindow }));
}
