/** deploy/kubernetes: the manifests parse, fit together, and probe and scrape paths the gateway serves. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';

const DIR = new URL('../../deploy/kubernetes/', import.meta.url).pathname;
const docs = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).map((f) => parse(readFileSync(join(DIR, f), 'utf8')) as any);
const byKind = (kind: string) => docs.find((d) => d.kind === kind);

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway({ upstreams: { sandbox: { current: 'http://127.0.0.1:1' } } });
});
afterAll(() => gw.close());

describe('Kubernetes manifests', () => {
  it('have a Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler and ServiceMonitor that select one another', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Service', 'ServiceMonitor']);
    const labels = byKind('Deployment').spec.template.metadata.labels;
    for (const kind of ['Service']) expect(byKind(kind).spec.selector).toEqual(labels);
    for (const kind of ['PodDisruptionBudget', 'ServiceMonitor']) expect(byKind(kind).spec.selector.matchLabels).toEqual(labels);
    expect(byKind('HorizontalPodAutoscaler').spec.scaleTargetRef.name).toBe(byKind('Deployment').metadata.name);
    expect(byKind('PodDisruptionBudget').spec.minAvailable).toBeLessThan(byKind('HorizontalPodAutoscaler').spec.minReplicas);
  });

  it('probe and scrape paths the gateway answers, and give a shutdown longer than the gateway waits', async () => {
    const container = byKind('Deployment').spec.template.spec.containers[0];
    for (const path of [container.readinessProbe.httpGet.path, container.livenessProbe.httpGet.path, byKind('ServiceMonitor').spec.endpoints[0].path])
      expect((await client(gw.url).get(path)).status, path).toBe(200);
    const grace = byKind('Deployment').spec.template.spec.terminationGracePeriodSeconds * 1000;
    expect(grace).toBeGreaterThan(loadConfig({}).timeouts.shutdownMs);
  });
});
