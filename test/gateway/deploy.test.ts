/**
 * deploy/kubernetes: the manifests validate against the Kubernetes (and Prometheus Operator) schemas,
 * fit together, meet the "restricted" Pod Security Standard, give a shutdown time that covers the
 * preStop delay and the gateway's own budget, probe and scrape paths the gateway serves, and the pod's
 * environment (with the service-link variables Kubernetes adds for Services named paybridge*) starts
 * the gateway.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config.js';
import { spawnGateway, startGateway, tempJson } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';

const DIR = new URL('../../deploy/kubernetes/', import.meta.url).pathname;
const RULES = new URL('../../deploy/prometheus/paybridge-rules.yml', import.meta.url);
const docs = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => parse(readFileSync(join(DIR, f), 'utf8')));
const byKind = (kind: string) => docs.find((d) => d.kind === kind);

/** The model class of each kind shipped: its validate() checks a manifest against the published schema. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  ConfigMap,
  Service,
  Deployment,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  PrometheusRule,
  ServiceMonitor,
};
const validate = (doc: any) => new MODELS[doc.kind]!(doc).validate();
/** The configuration file the ConfigMap holds. */
const configFile = () => JSON.parse(byKind('ConfigMap').data['paybridge.json']) as object;

/**
 * The "restricted" Pod Security Standard's checks (kubernetes.io/docs/concepts/security/pod-security-standards),
 * as problems found in a pod spec: an empty list passes.
 */
function restrictedProblems(pod: any): string[] {
  const problems: string[] = [];
  const allowedVolumes = [
    'configMap',
    'csi',
    'downwardAPI',
    'emptyDir',
    'ephemeral',
    'persistentVolumeClaim',
    'projected',
    'secret',
  ];
  for (const v of pod.volumes ?? [])
    if (!Object.keys(v).some((k) => allowedVolumes.includes(k))) problems.push(`volume ${v.name}: type not allowed`);
  if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push('host namespaces');
  const podSeccomp = pod.securityContext?.seccompProfile?.type;
  for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
    const sc = c.securityContext ?? {};
    if (sc.privileged) problems.push(`${c.name}: privileged`);
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${c.name}: allowPrivilegeEscalation must be false`);
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${c.name}: capabilities.drop must include ALL`);
    if ((sc.capabilities?.add ?? []).some((cap: string) => cap !== 'NET_BIND_SERVICE'))
      problems.push(`${c.name}: capabilities.add`);
    if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true)
      problems.push(`${c.name}: runAsNonRoot must be true`);
    if ((sc.runAsUser ?? pod.securityContext?.runAsUser) === 0) problems.push(`${c.name}: runAsUser 0`);
    const seccomp = sc.seccompProfile?.type ?? podSeccomp;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
      problems.push(`${c.name}: seccompProfile must be RuntimeDefault or Localhost`);
    for (const p of c.ports ?? []) if (p.hostPort) problems.push(`${c.name}: hostPort`);
  }
  return problems;
}

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway({ upstreams: { sandbox: { current: 'http://127.0.0.1:1' } } });
});
afterAll(() => gw.close());

describe('Kubernetes manifests', () => {
  it('validate against the Kubernetes and Prometheus Operator schemas, and a manifest with a planted fault does not', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'PrometheusRule',
      'Service',
      'ServiceMonitor',
    ]);
    for (const doc of docs) expect(() => validate(doc), doc.kind).not.toThrow();
    // the check bites: a port that is not a number, a Deployment without a selector
    const badPort = structuredClone(byKind('Deployment'));
    badPort.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(() => validate(badPort)).toThrow();
    const noSelector = structuredClone(byKind('Deployment'));
    delete noSelector.spec.selector;
    expect(() => validate(noSelector)).toThrow();
  });

  it('have a Deployment, Service, PodDisruptionBudget, HorizontalPodAutoscaler and ServiceMonitor that select one another', () => {
    const labels = byKind('Deployment').spec.template.metadata.labels;
    for (const kind of ['Service']) expect(byKind(kind).spec.selector).toEqual(labels);
    for (const kind of ['PodDisruptionBudget', 'ServiceMonitor'])
      expect(byKind(kind).spec.selector.matchLabels).toEqual(labels);
    expect(byKind('HorizontalPodAutoscaler').spec.scaleTargetRef.name).toBe(byKind('Deployment').metadata.name);
    expect(byKind('PodDisruptionBudget').spec.minAvailable).toBeLessThan(
      byKind('HorizontalPodAutoscaler').spec.minReplicas,
    );
  });

  it('meet the restricted Pod Security Standard (and the check finds a pod that does not)', () => {
    const pod = byKind('Deployment').spec.template.spec;
    expect(restrictedProblems(pod)).toEqual([]);
    const loose = structuredClone(pod);
    delete loose.containers[0].securityContext;
    delete loose.securityContext.seccompProfile;
    expect(restrictedProblems(loose)).toEqual([
      'paybridge: allowPrivilegeEscalation must be false',
      'paybridge: capabilities.drop must include ALL',
      'paybridge: seccompProfile must be RuntimeDefault or Localhost',
    ]);
  });

  it('pin an image, mount the ConfigMap as the configuration file (optional, as is the Secret), and turn service links off', () => {
    const pod = byKind('Deployment').spec.template.spec;
    const container = pod.containers[0];
    expect(container.image).not.toMatch(/:latest$|^[^:]+$/);
    for (const source of container.envFrom)
      expect(Object.values(source)[0], JSON.stringify(source)).toMatchObject({ optional: true });
    const volume = pod.volumes.find((v: any) => v.configMap);
    expect(volume.configMap).toMatchObject({ name: byKind('ConfigMap').metadata.name, optional: true });
    const mount = container.volumeMounts.find((m: any) => m.name === volume.name);
    // a directory mount, which the kubelet updates in place (a subPath mount never changes)
    expect(mount.subPath).toBeUndefined();
    const file = container.args[container.args.indexOf('--config') + 1];
    expect(file).toBe(`${mount.mountPath}/paybridge.json`);
    // the ConfigMap is optional: so is the file, or a pod would not start until it exists
    expect(container.args).toContain('--config-optional');
    // the data volume (the working directory, where the corpus's relative path lands) holds what the
    // rotation of the shadow records and of the corpus keeps: (keep + 1) x maxBytes each
    const shadow = loadConfig({
      file: configFile(),
      flags: { 'shadow-log': container.args[container.args.indexOf('--shadow-log') + 1] },
    }).shadow;
    const mountOf = (file: string) =>
      container.volumeMounts.find((m: any) => `${container.workingDir}/${file}`.startsWith(`${m.mountPath}/`));
    expect(mountOf(shadow.log!.file).name).toBe(mountOf(shadow.corpus!.file).name);
    const data = pod.volumes.find((v: any) => v.name === mountOf(shadow.log!.file).name);
    const bound = [shadow.log!, shadow.corpus!].reduce((sum, f) => sum + (f.keep + 1) * f.maxBytes, 0);
    expect(Number(/^(\d+)Mi$/.exec(data.emptyDir.sizeLimit)![1]) * 2 ** 20).toBeGreaterThanOrEqual(bound);
    expect(() => loadConfig({ file: configFile() })).not.toThrow();
    expect(pod.enableServiceLinks).toBe(false);
  });

  it('probe and scrape paths the gateway answers, and give a shutdown longer than the preStop delay and the gateway budget together', async () => {
    const pod = byKind('Deployment').spec.template.spec;
    const container = pod.containers[0];
    for (const path of [
      container.readinessProbe.httpGet.path,
      container.livenessProbe.httpGet.path,
      byKind('ServiceMonitor').spec.endpoints[0].path,
    ])
      expect((await client(gw.url).get(path)).status, path).toBe(200);
    const preStopMs = container.lifecycle.preStop.sleep.seconds * 1000;
    expect(preStopMs).toBeGreaterThan(0);
    const env = Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value]));
    const config = loadConfig({ file: configFile(), env });
    expect(config.timeouts.drainMs).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(preStopMs + config.timeouts.shutdownMs);
  });

  it('ship the Prometheus rules also as a PrometheusRule, the same groups', () => {
    const rules = parse(readFileSync(RULES, 'utf8')) as { groups: unknown };
    expect(byKind('PrometheusRule').spec.groups).toEqual(rules.groups);
  });
});

describe('the pod environment', () => {
  /** What Kubernetes adds to every pod of a namespace for a Service named `paybridge` (and one named `paybridge-gateway`). */
  const SERVICE_LINKS = {
    PAYBRIDGE_SERVICE_HOST: '10.96.0.10',
    PAYBRIDGE_SERVICE_PORT: '80',
    PAYBRIDGE_SERVICE_PORT_HTTP: '80',
    PAYBRIDGE_PORT: 'tcp://10.96.0.10:80',
    PAYBRIDGE_PORT_80_TCP: 'tcp://10.96.0.10:80',
    PAYBRIDGE_PORT_80_TCP_PROTO: 'tcp',
    PAYBRIDGE_PORT_80_TCP_PORT: '80',
    PAYBRIDGE_PORT_80_TCP_ADDR: '10.96.0.10',
    PAYBRIDGE_GATEWAY_SERVICE_HOST: '10.96.0.11',
    PAYBRIDGE_GATEWAY_SERVICE_PORT: '80',
    PAYBRIDGE_GATEWAY_PORT: 'tcp://10.96.0.11:80',
    PAYBRIDGE_GATEWAY_PORT_80_TCP: 'tcp://10.96.0.11:80',
    PAYBRIDGE_GATEWAY_PORT_80_TCP_ADDR: '10.96.0.11',
  };

  it('service-link variables are not settings: ignored, while an unknown PAYBRIDGE_ variable still stops start-up', () => {
    const config = loadConfig({ env: SERVICE_LINKS });
    expect(config.listen.port).toBe(8080);
    expect(() => loadConfig({ env: { ...SERVICE_LINKS, PAYBRIDGE_PROT: '80' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { PAYBRIDGE_PORT: 'tcp://10.96.0.10:eighty' } })).toThrow(ConfigError);
  });

  it("starts the gateway with the Deployment's and ConfigMap's variables and the service links present", async () => {
    const container = byKind('Deployment').spec.template.spec.containers[0];
    const env: Record<string, string> = { ...SERVICE_LINKS };
    for (const { name, value } of container.env as { name: string; value: string }[]) env[name] = value;
    // on this machine: the ConfigMap's file in a temporary folder, loopback and a free port instead of the pod's 0.0.0.0:8080
    const file = tempJson('paybridge.json', configFile());
    const args = container.args.slice(1).map((a: string) => a.replace('/app/config/paybridge.json', file));
    // the pod's working directory, the data volume: a temporary folder here
    const proc = await spawnGateway([...args, '--host', '127.0.0.1'], env, {
      cwd: mkdtempSync(join(tmpdir(), 'paybridge-pod-')),
    });
    try {
      expect((await client(proc.url).get('/readyz')).status).toBe(200);
    } finally {
      expect(await proc.stop()).toBe(0);
    }
  });
});
