import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { validate } from 'dockerfile-utils';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const K8S = path.join(ROOT, 'deploy/k8s');
const OVERLAYS = ['local', 'production'] as const;

type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};

/** The services, from the folders under services/: nothing here lists them by hand. */
const SERVICES = readdirSync(path.join(ROOT, 'services'))
  .filter((name) => existsSync(path.join(ROOT, 'services', name, 'src/main.ts')))
  .sort();

/**
 * The real kustomize: the standalone binary when installed, else kubectl's built-in
 * one (scripts/provision.sh installs Debian's kubernetes-client when neither exists).
 */
function renderer(): { cmd: string; args: (dir: string) => string[] } {
  const has = (cmd: string, ...args: string[]) =>
    spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  if (has('kustomize', 'version')) return { cmd: 'kustomize', args: (dir) => ['build', dir] };
  if (has('kubectl', 'version', '--client'))
    return { cmd: 'kubectl', args: (dir) => ['kustomize', dir] };
  throw new Error(
    'no kustomize renderer: install kubectl (Debian: kubernetes-client) or kustomize; npm run provision does',
  );
}

const rendered = {} as Record<(typeof OVERLAYS)[number], Doc[]>;

beforeAll(() => {
  const r = renderer();
  for (const overlay of OVERLAYS) {
    const yaml = execFileSync(r.cmd, r.args(path.join(K8S, 'overlays', overlay)), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    rendered[overlay] = parseAllDocuments(yaml).map((d) => d.toJS() as Doc);
  }
  const counts = OVERLAYS.map((overlay) => {
    const byKind = new Map<string, number>();
    for (const d of rendered[overlay]) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
    return `${overlay}: ${rendered[overlay].length} resources (${[...byKind]
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')})`;
  });
  process.stdout.write(`rendered with ${r.cmd}:\n${counts.join('\n')}\n`);
});

function find(docs: Doc[], kind: string, name?: string): Doc[] {
  return docs.filter((d) => d.kind === kind && (name === undefined || d.metadata.name === name));
}

/** Every value of `key` anywhere below `value`. */
function valuesOf(value: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) valuesOf(v, key, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  }
  return out;
}

interface Container {
  name: string;
  image: string;
  env?: Array<{
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string } };
  }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
const podSpec = (d: Doc) => (d.spec as { template: { spec: PodSpec } }).template.spec;

/** Environment variable names that hold credentials. */
const SECRET_NAME =
  /(SECRET|PASSWORD|PASSWD|TOKEN|API_KEY|PRIVATE|CREDENTIAL|_HASH$|ACCESS_KEY|SECRETS_KEY|DATABASE_URL)/i;

describe('the generated manifests', () => {
  it('are up to date with services/* (npm run k8s:generate)', () => {
    const check = spawnSync(process.execPath, [path.join(K8S, 'generate.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(check.status, check.stderr).toBe(0);
  });
});

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const docs = () => rendered[overlay];

  it('has a Deployment, a PodDisruptionBudget, a NetworkPolicy and an autoscaler for every service', () => {
    for (const name of SERVICES) {
      const [deployment] = find(docs(), 'Deployment', name);
      expect(deployment, `Deployment ${name}`).toBeDefined();
      const pdb = find(docs(), 'PodDisruptionBudget', name)[0];
      expect(pdb, `PodDisruptionBudget ${name}`).toBeDefined();
      expect(find(docs(), 'NetworkPolicy', name), `NetworkPolicy ${name}`).toHaveLength(1);
      const scaled =
        find(docs(), 'ScaledObject', name)[0] ?? find(docs(), 'HorizontalPodAutoscaler', name)[0];
      expect(scaled, `autoscaler of ${name}`).toBeDefined();
    }
    expect(
      find(docs(), 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(SERVICES);
  });

  it('scales the stage workers on consumer lag with the KEDA nats-jetstream trigger', () => {
    for (const [name, durable] of [
      ['ingestion', 'stage-parse'],
      ['annotation', 'stage-annotate'],
      ['embedding', 'stage-embed'],
    ]) {
      const [scaled] = find(docs(), 'ScaledObject', name);
      const triggers = (
        scaled!.spec as { triggers: Array<{ type: string; metadata: Record<string, string> }> }
      ).triggers;
      const lag = triggers.find(
        (t) => t.type === 'nats-jetstream' && t.metadata.consumer === durable,
      );
      expect(lag, `${name} on ${durable}`).toBeDefined();
      expect(lag!.metadata.stream).toBe('REPORTS');
      const namespace = (
        find(docs(), 'ConfigMap', 'reports-config')[0]!.metadata as { namespace?: string }
      ).namespace;
      expect(lag!.metadata.natsServerMonitoringEndpoint).toBe(
        `reports-nats-headless.${namespace}.svc.cluster.local:8222`,
      );
    }
  });

  it('gives every container probes, resources and a non-root read-only security context', () => {
    for (const d of find(docs(), 'Deployment')) {
      const pod = podSpec(d);
      expect(pod.securityContext?.runAsNonRoot, d.metadata.name).toBe(true);
      expect(pod.securityContext?.runAsUser, d.metadata.name).toBeGreaterThan(0);
      for (const c of pod.containers) {
        const where = `${d.metadata.name}/${c.name}`;
        expect(c.livenessProbe, `${where} liveness`).toBeDefined();
        expect(c.readinessProbe, `${where} readiness`).toBeDefined();
        for (const r of ['cpu', 'memory']) {
          expect(c.resources?.requests?.[r], `${where} requests.${r}`).toBeDefined();
          expect(c.resources?.limits?.[r], `${where} limits.${r}`).toBeDefined();
        }
        expect(c.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          runAsNonRoot: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('lets a service shut down by itself before Kubernetes kills it', () => {
    const [config] = find(docs(), 'ConfigMap', 'reports-config');
    const timeoutMs = Number(config!.data!.SHUTDOWN_TIMEOUT_MS);
    for (const d of find(docs(), 'Deployment')) {
      const grace = podSpec(d).terminationGracePeriodSeconds ?? 30;
      expect(timeoutMs, d.metadata.name).toBeLessThan(grace * 1000);
    }
  });

  it('pins every image to a version: no latest, no missing tag', () => {
    const images = [...valuesOf(docs(), 'image'), ...valuesOf(docs(), 'imageName')].filter(
      (v): v is string => typeof v === 'string',
    );
    expect(images.length).toBeGreaterThan(SERVICES.length);
    for (const image of images) {
      const tag = /:([^/:@]+)$/.exec(image)?.[1];
      expect(tag, image).toBeDefined();
      expect(tag, image).not.toBe('latest');
    }
  });

  it('keeps secrets out of ConfigMaps and reads them from Secrets', () => {
    for (const cm of find(docs(), 'ConfigMap'))
      for (const key of Object.keys(cm.data ?? {}))
        expect(SECRET_NAME.test(key), `${cm.metadata.name}.${key}`).toBe(false);
    for (const d of [...find(docs(), 'Deployment'), ...find(docs(), 'Job')]) {
      for (const c of podSpec(d).containers) {
        for (const e of c.env ?? []) {
          if (!SECRET_NAME.test(e.name)) continue;
          expect(e.value, `${d.metadata.name} ${e.name} must not be a plain value`).toBeUndefined();
          expect(e.valueFrom?.secretKeyRef?.name, `${d.metadata.name} ${e.name}`).toBeDefined();
        }
      }
    }
    if (overlay === 'production') expect(find(docs(), 'Secret')).toEqual([]);
  });

  it('declares NATS JetStream, Postgres, OpenSearch and MinIO as the operators\u2019 resources', () => {
    const [nats] = find(docs(), 'StatefulSet', 'reports-nats');
    const [natsConfig] = find(docs(), 'ConfigMap', 'reports-nats-config');
    expect(natsConfig!.data!['nats.conf']).toMatch(/sync_interval:\s*always/);
    if (overlay === 'production') {
      expect((nats!.spec as { replicas: number }).replicas).toBe(3);
      expect(natsConfig!.data!['nats.conf']).toMatch(/cluster\s*{[\s\S]*reports-nats-2/);
      expect(find(docs(), 'ConfigMap', 'reports-config')[0]!.data!.NATS_STREAM_REPLICAS).toBe('3');
    }
    const [pg] = find(docs(), 'Cluster', 'reports-db');
    expect(pg!.apiVersion).toBe('postgresql.cnpg.io/v1');
    if (overlay === 'production') expect((pg!.spec as { instances: number }).instances).toBe(3);
    expect(find(docs(), 'OpenSearchCluster', 'reports-search')[0]!.apiVersion).toBe(
      'opensearch.opster.io/v1',
    );
    expect(find(docs(), 'Tenant', 'reports-objects')[0]!.apiVersion).toBe('minio.min.io/v2');
  });

  it('has a Service for the gateway, the only service that listens for HTTP', () => {
    expect(find(docs(), 'Service', 'gateway')).toHaveLength(1);
  });
});

describe.each(SERVICES)('the Dockerfile of %s', (name) => {
  const file = path.join(ROOT, 'services', name, 'Dockerfile');

  it('is multi-stage, runs as a non-root user, and pins its base image', () => {
    const text = readFileSync(file, 'utf8');
    const from = [...text.matchAll(/^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/gim)];
    expect(from.length).toBeGreaterThanOrEqual(2);
    const baseDefault = /^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1];
    expect(baseDefault).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+-slim$/);
    const runtime = text.slice(text.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^USER 10001:10001$/m);
    expect(runtime).toContain(`CMD ["node","services/${name}/dist/main.js"]`);
    expect(text).toMatch(/turbo@[\d.]+ prune @reports\/[\w-]+ --docker/);
  });

  it('passes the Dockerfile linter (dockerfile-utils) without errors or warnings', () => {
    const problems = validate(readFileSync(file, 'utf8'));
    expect(problems.map((p) => `${p.range.start.line + 1}: ${p.message}`)).toEqual([]);
  });
});
