// Writes the per-service Kubernetes manifests of deploy/k8s/base from the folders under
// services/ (and deploy/k8s/services.mjs), plus base/kustomization.yaml listing every
// resource. `node deploy/k8s/generate.mjs --check` fails when the committed files are
// stale (a service was added or the template changed): run `npm run k8s:generate`.
//
// The output is plain kustomize: `resources` of files, overlays with `bases`,
// `patchesStrategicMerge` and `patchesJson6902`, so it renders with any kustomize
// from v2.0.3 (Debian's kubectl 1.20) to v5 (`kubectl kustomize`).
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { DEFAULTS, SECRET_ENV, SERVICES } from './services.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const BASE = path.join(HERE, 'base');
const METRICS_PORT = 9464;
const NAMESPACE = 'reports';
const IMAGE_REGISTRY = 'ghcr.io/property-reports';
const PART_OF = 'property-reports';

/** Every service: a folder under services/ with a package.json and src/main.ts. */
export function serviceNames() {
  return readdirSync(path.join(ROOT, 'services'))
    .filter((name) => existsSync(path.join(ROOT, 'services', name, 'src/main.ts')))
    .sort();
}

function version(name) {
  return JSON.parse(readFileSync(path.join(ROOT, 'services', name, 'package.json'), 'utf8'))
    .version;
}

function labels(name, indent) {
  const pad = ' '.repeat(indent);
  return [
    `${pad}app.kubernetes.io/name: ${name}`,
    `${pad}app.kubernetes.io/part-of: ${PART_OF}`,
    `${pad}app.kubernetes.io/component: ${SERVICES[name]?.http ? 'api' : 'worker'}`,
  ].join('\n');
}

function selector(name, indent) {
  const pad = ' '.repeat(indent);
  return `${pad}app.kubernetes.io/name: ${name}\n${pad}app.kubernetes.io/part-of: ${PART_OF}`;
}

function deployment(name) {
  const spec = SERVICES[name] ?? {};
  const res = spec.resources ?? DEFAULTS.resources;
  const replicas = (spec.replicas ?? DEFAULTS.replicas).min;
  const ports = [
    ...(spec.http ? [`            - name: http\n              containerPort: ${spec.http}`] : []),
    `            - name: metrics\n              containerPort: ${METRICS_PORT}`,
  ].join('\n');
  const secrets = SECRET_ENV.map(
    (key) => `            - name: ${key}
              valueFrom:
                secretKeyRef:
                  name: reports-secrets
                  key: ${key}
                  optional: true`,
  ).join('\n');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  replicas: ${replicas}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
${selector(name, 6)}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  template:
    metadata:
      labels:
${labels(name, 8)}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "${METRICS_PORT}"
        prometheus.io/path: /metrics
    spec:
      automountServiceAccountToken: false
      # SIGTERM -> stop taking work, give back what is unfinished after SHUTDOWN_GRACE_MS,
      # drain NATS; the service exits by itself before SHUTDOWN_TIMEOUT_MS (25 s).
      terminationGracePeriodSeconds: 30
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        runAsGroup: 10001
        fsGroup: 10001
        seccompProfile:
          type: RuntimeDefault
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
${selector(name, 14)}
      containers:
        - name: ${name}
          image: ${IMAGE_REGISTRY}/${name}:${version(name)}
          imagePullPolicy: IfNotPresent
          ports:
${ports}
          envFrom:
            - configMapRef:
                name: reports-config
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: reports-db-app
                  key: uri
            - name: S3_ACCESS_KEY
              valueFrom:
                secretKeyRef:
                  name: reports-object-store
                  key: accessKey
            - name: S3_SECRET_KEY
              valueFrom:
                secretKeyRef:
                  name: reports-object-store
                  key: secretKey
${secrets}
          resources:
            requests:
              cpu: ${res.cpu}
              memory: ${res.memory}
            limits:
              cpu: "${res.cpuLimit}"
              memory: ${res.memoryLimit}
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            capabilities:
              drop: ["ALL"]
          startupProbe:
            httpGet:
              path: /healthz
              port: metrics
            periodSeconds: 2
            failureThreshold: 60
          livenessProbe:
            httpGet:
              path: /healthz
              port: metrics
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          readinessProbe:
            httpGet:
              path: /readyz
              port: metrics
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 256Mi
`;
}

function service(name) {
  const port = SERVICES[name]?.http;
  if (!port) return null;
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  selector:
${selector(name, 4)}
  ports:
    - name: http
      port: 80
      targetPort: http
    - name: metrics
      port: ${METRICS_PORT}
      targetPort: metrics
`;
}

function autoscaler(name) {
  const spec = SERVICES[name] ?? {};
  const replicas = spec.replicas ?? DEFAULTS.replicas;
  if (spec.durables?.length) {
    const triggers = spec.durables
      .map(
        (durable) => `    - type: nats-jetstream
      metadata:
        natsServerMonitoringEndpoint: reports-nats-headless.${NAMESPACE}.svc.cluster.local:8222
        account: "$G"
        stream: REPORTS
        consumer: ${durable}
        lagThreshold: "10"
        activationLagThreshold: "1"`,
      )
      .join('\n');
    return `# Stage workers scale on consumer lag (messages not yet delivered) through KEDA's
# nats-jetstream scaler, and on CPU; KEDA owns the HorizontalPodAutoscaler it creates.
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  scaleTargetRef:
    name: ${name}
  minReplicaCount: ${replicas.min}
  maxReplicaCount: ${replicas.max}
  pollingInterval: 15
  cooldownPeriod: 300
  advanced:
    horizontalPodAutoscalerConfig:
      behavior:
        scaleDown:
          stabilizationWindowSeconds: 300
  triggers:
${triggers}
    - type: cpu
      metricType: Utilization
      metadata:
        value: "70"
`;
  }
  return `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${name}
  minReplicas: ${replicas.min}
  maxReplicas: ${replicas.max}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
`;
}

function disruptionBudget(name) {
  return `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
${selector(name, 6)}
`;
}

function networkPolicy(name) {
  const port = SERVICES[name]?.http;
  const http = port
    ? `    # The API: from the ingress controller (and anything routed to it).
    - ports:
        - protocol: TCP
          port: ${port}
`
    : '';
  return `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ${name}
  labels:
${labels(name, 4)}
spec:
  podSelector:
    matchLabels:
${selector(name, 6)}
  policyTypes: ["Ingress"]
  ingress:
${http}    # Prometheus scrapes and kubelet probes on the operations port, from the monitoring namespace.
    - from:
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: monitoring
      ports:
        - protocol: TCP
          port: ${METRICS_PORT}
`;
}

/**
 * The overlays: namespace, image tag, and the hand-written patches (files beside the
 * generated kustomization.yaml). The KEDA triggers name the NATS monitoring endpoint
 * with its namespace, so each overlay gets that patch generated.
 */
const OVERLAYS = {
  local: {
    namespace: 'reports-local',
    tag: () => 'dev',
    patches: ['patches.yaml'],
    secrets: `secretGenerator:
  # Development values for a local cluster only; production creates these Secrets out of band.
  - name: reports-secrets
    literals:
      - ADMIN_HASH=local-admin-hash-change-me
      - FILE_URL_SECRET=local-file-url-secret-change-me
  - name: reports-object-store
    literals:
      - accessKey=reports-local
      - secretKey=reports-local-secret-change-me
  - name: reports-minio-env
    files:
      - config.env=minio-local.env
generatorOptions:
  disableNameSuffixHash: true
`,
  },
  production: {
    namespace: NAMESPACE,
    tag: (name) => version(name),
    patches: ['patches.yaml'],
    resources: ['ingress.yaml'],
    secrets: '',
  },
};

function overlayKustomization(overlay, names) {
  const o = OVERLAYS[overlay];
  const images = [...names, 'schema']
    .map(
      (name) =>
        `  - name: ${IMAGE_REGISTRY}/${name}\n    newTag: "${name === 'schema' ? o.tag('gateway') : o.tag(name)}"`,
    )
    .join('\n');
  const keda = names.filter((n) => SERVICES[n]?.durables?.length);
  const json6902 = keda
    .map(
      (name) => `  - target:
      group: keda.sh
      version: v1alpha1
      kind: ScaledObject
      name: ${name}
    path: keda-${name}.json`,
    )
    .join('\n');
  return `# Generated by deploy/k8s/generate.mjs; do not edit (change the OVERLAYS table or ${o.patches.join(', ')}).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ${o.namespace}
bases:
  - ../../base
${o.resources ? `resources:\n${o.resources.map((r) => `  - ${r}`).join('\n')}\n` : ''}images:
${images}
patchesStrategicMerge:
${o.patches.map((p) => `  - ${p}`).join('\n')}
patchesJson6902:
${json6902}
${o.secrets}`;
}

function kedaEndpointPatch(overlay, name) {
  const o = OVERLAYS[overlay];
  const ops = SERVICES[name].durables.map((_, i) => ({
    op: 'replace',
    path: `/spec/triggers/${i}/metadata/natsServerMonitoringEndpoint`,
    value: `reports-nats-headless.${o.namespace}.svc.cluster.local:8222`,
  }));
  return `${JSON.stringify(ops, null, 2)}\n`;
}

/** Base image of every build and runtime stage: Debian's Node 20, pinned to a patch release. */
const NODE_IMAGE = 'node:20.19.5-bookworm-slim';
const TURBO_VERSION = '2.11.11';

/**
 * The multi-stage Dockerfile of one workspace: turbo prune keeps only the workspaces it
 * depends on (and their part of the lock file), the build stage installs and builds
 * them and drops dev dependencies and sources, and the runtime stage holds node, the
 * production node_modules and the built workspaces, run as an unprivileged user.
 */
export function dockerfile(workspaceDir, pkgName, cmd, ports) {
  return `# syntax=docker/dockerfile:1
# Generated by deploy/k8s/generate.mjs; do not edit.
# Image of ${pkgName}. Build from the repository root:
#   docker build -f ${workspaceDir}/Dockerfile -t ${IMAGE_REGISTRY}/${path.basename(workspaceDir)}:<version> .
ARG NODE_IMAGE=${NODE_IMAGE}

# 1. Only the workspaces ${pkgName} needs, with their part of the lock file.
FROM \${NODE_IMAGE} AS prune
WORKDIR /repo
COPY . .
RUN npx --yes turbo@${TURBO_VERSION} prune ${pkgName} --docker

# 2. Install (TypeScript and the other dev tools included), build, then keep only what runs.
FROM \${NODE_IMAGE} AS build
WORKDIR /repo
COPY --from=prune /repo/out/json/ ./
RUN npm install --no-audit --no-fund
COPY --from=prune /repo/out/full/ ./
COPY tsconfig.base.json ./
RUN npx turbo run build --filter=${pkgName}... \\
 && npm prune --omit=dev --no-audit --no-fund \\
 && find packages services -mindepth 2 -maxdepth 2 \\( -name src -o -name test -o -name "*.tsbuildinfo" \\) -exec rm -rf {} +

# 3. Runtime: read-only, unprivileged, no build tools.
FROM \${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /repo/package.json ./package.json
COPY --from=build /repo/node_modules ./node_modules
COPY --from=build /repo/packages ./packages
${workspaceDir.startsWith('services/') ? `COPY --from=build /repo/${workspaceDir} ./${workspaceDir}\n` : ''}USER 10001:10001
${ports.length ? `EXPOSE ${ports.join(' ')}\n` : ''}STOPSIGNAL SIGTERM
CMD ${JSON.stringify(['node', cmd])}
`;
}

/** Generated files, path (relative to deploy/k8s) -> content. */
export function render() {
  const files = new Map();
  const names = serviceNames();
  for (const name of names) {
    const docs = [
      deployment(name),
      service(name),
      autoscaler(name),
      disruptionBudget(name),
      networkPolicy(name),
    ]
      .filter(Boolean)
      .join('---\n');
    files.set(
      `base/services/${name}.yaml`,
      `# Generated by deploy/k8s/generate.mjs from services/${name}; do not edit.\n${docs}`,
    );
  }
  const infra = readdirSync(path.join(BASE, 'infra'))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const app = readdirSync(path.join(BASE, 'app'))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  files.set(
    'base/kustomization.yaml',
    `# Generated by deploy/k8s/generate.mjs; do not edit (add files under app/ or infra/ and regenerate).
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ${NAMESPACE}
resources:
${[
  ...app.map((f) => `app/${f}`),
  ...infra.map((f) => `infra/${f}`),
  ...names.map((n) => `services/${n}.yaml`),
]
  .map((f) => `  - ${f}`)
  .join('\n')}
`,
  );
  for (const name of names) {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'services', name, 'package.json'), 'utf8'));
    const ports = [...(SERVICES[name]?.http ? [SERVICES[name].http] : []), METRICS_PORT];
    files.set(
      `../../services/${name}/Dockerfile`,
      dockerfile(`services/${name}`, pkg.name, `services/${name}/dist/main.js`, ports),
    );
  }
  files.set(
    '../../packages/schema/Dockerfile',
    dockerfile('packages/schema', '@reports/schema', 'packages/schema/dist/cli.js', []),
  );
  for (const overlay of Object.keys(OVERLAYS)) {
    files.set(`overlays/${overlay}/kustomization.yaml`, overlayKustomization(overlay, names));
    for (const name of names.filter((n) => SERVICES[n]?.durables?.length))
      files.set(`overlays/${overlay}/keda-${name}.json`, kedaEndpointPatch(overlay, name));
  }
  return files;
}

/** YAML and JSON come out as `npm run format` would leave them, so the lint check passes. */
async function formatted(files) {
  const config = (await prettier.resolveConfig(path.join(HERE, 'x.yaml'))) ?? {};
  for (const [rel, content] of files) {
    const parser = rel.endsWith('.yaml') ? 'yaml' : rel.endsWith('.json') ? 'json' : null;
    if (parser) files.set(rel, await prettier.format(content, { ...config, parser }));
  }
  return files;
}

async function main() {
  const check = process.argv.includes('--check');
  const files = await formatted(render());
  const stale = [];
  for (const [rel, content] of files) {
    const file = path.join(HERE, rel);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (current === content) continue;
    stale.push(rel);
    if (!check) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  // A service folder that went away leaves nothing behind.
  const dir = path.join(BASE, 'services');
  for (const f of existsSync(dir) ? readdirSync(dir) : []) {
    const rel = `base/services/${f}`;
    if (files.has(rel)) continue;
    stale.push(rel);
    if (!check) rmSync(path.join(dir, f));
  }
  if (check && stale.length > 0) {
    console.error(`deploy/k8s is stale (${stale.join(', ')}): run npm run k8s:generate`);
    process.exit(1);
  }
  if (!check)
    console.error(stale.length ? `wrote ${stale.join(', ')}` : 'deploy/k8s is up to date');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
