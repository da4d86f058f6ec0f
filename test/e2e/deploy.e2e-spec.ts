import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { loadConfig } from '@svc/config';
import { TestApp } from '../harness/create-test-app';

/**
 * Packaging, checked without a container engine (none runs here): the
 * Kubernetes manifests parse and point at probe paths the running service
 * answers, their configuration is one the service accepts, and the Dockerfile
 * and the migration Job run the entry points package.json names, which
 * `npm run build` produces.
 */
const ROOT = join(__dirname, '..', '..');
const MANIFESTS = join(ROOT, 'deploy', 'kubernetes');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: any };
type Container = {
  name: string;
  command?: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  livenessProbe?: { httpGet: { path: string; port: string | number } };
  readinessProbe?: { httpGet: { path: string; port: string | number } };
  startupProbe?: { httpGet: { path: string; port: string | number } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};

function manifests(): Manifest[] {
  return readdirSync(MANIFESTS)
    .filter((file) => /\.ya?ml$/.test(file))
    .flatMap((file) => loadAll(readFileSync(join(MANIFESTS, file), 'utf8')) as Manifest[])
    .filter((doc) => doc !== null && doc !== undefined);
}

function one(kind: string, name?: string): Manifest {
  const found = manifests().filter((doc) => doc.kind === kind && (name === undefined || doc.metadata.name === name));
  expect({ kind, name, count: found.length }).toEqual({ kind, name, count: 1 });
  return found[0];
}

/** The entry script of a package.json script such as `node dist/…/main.js`. */
/** The command line of a package.json script from `node` on: node, its flags, the entry point. */
function commandOf(script: string): string[] {
  const words = (PACKAGE.scripts[script] ?? '').trim().split(/\s+/);
  return words.slice(words.lastIndexOf('node'));
}

function entryOf(script: string): string {
  const match = /node (?:--\S+ )*(dist\/\S+\.js)/.exec(PACKAGE.scripts[script] ?? '');
  if (!match) throw new Error(`package.json script ${script} does not run node dist/….js`);
  return match[1];
}

/**
 * The object store's variables (CONTRACT 19): the store's own, read by the object-store model
 * store, and the AWS SDK's own, read by the SDK's standard chain.
 */
const OBJECT_STORE_VARIABLES = [
  'MODEL_STORE_URL',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
];

/** Every variable the configuration schema knows, and the object store's. */
function knownVariables(): Set<string> {
  const schema = readFileSync(join(ROOT, 'libs/config/src/env.schema.ts'), 'utf8');
  return new Set([...[...schema.matchAll(/^\s+([A-Z][A-Z0-9_]*)\?:/gm)].map((match) => match[1]), ...OBJECT_STORE_VARIABLES]);
}

describe('Packaging: Dockerfile and Kubernetes manifests', () => {
  describe('Kubernetes manifests', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start();
    });
    afterAll(async () => {
      await t.close();
    });

    it('every file parses as YAML, every document is a named Kubernetes object', () => {
      const docs = manifests();
      expect(docs.map((doc) => doc.kind).sort()).toEqual(
        ['ConfigMap', 'Deployment', 'Job', 'Kustomization', 'PodDisruptionBudget', 'Secret', 'Secret', 'Service'].sort(),
      );
      for (const doc of docs) {
        expect(doc).toEqual(expect.objectContaining({ apiVersion: expect.any(String), kind: expect.any(String) }));
        if (doc.kind !== 'Kustomization') expect(doc.metadata.name).toMatch(/^[a-z0-9-]+$/);
      }
      const kustomization = one('Kustomization');
      for (const file of kustomization.resources as string[]) expect(existsSync(join(MANIFESTS, file))).toBe(true);
      expect(kustomization.resources).not.toContain('secret.example.yaml');
    });

    it('the Deployment probes paths the running service answers 200: liveness /api/health/live, readiness /api/health/ready', async () => {
      const container: Container = one('Deployment').spec.template.spec.containers[0];
      expect(container.livenessProbe?.httpGet.path).toBe('/api/health/live');
      expect(container.readinessProbe?.httpGet.path).toBe('/api/health/ready');
      const portNames = (container.ports ?? []).map((port) => port.name);
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
        expect(portNames).toContain(probe?.httpGet.port);
        const res = await t.get(probe!.httpGet.path);
        expect({ path: probe!.httpGet.path, status: res.status }).toEqual({ path: probe!.httpGet.path, status: 200 });
      }
      expect(container.resources?.requests).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
      expect(container.resources?.limits).toEqual(expect.objectContaining({ memory: expect.any(String) }));
    });

    it('the ConfigMap is a configuration the service accepts, with the secrets kept out of it', () => {
      const configMap = one('ConfigMap', 'svc-licensing-config');
      const data = configMap.data as Record<string, string>;
      for (const secret of [
        'DATABASE_URL',
        'ADMIN_TOKEN',
        'REDIS_URL',
        'INSTALLER_GITHUB_TOKEN',
        'GITHUB_APP_PRIVATE_KEY',
        'KEY_DIGEST_PEPPER',
        'SECRETS_KEY',
        'NEW_SECRETS_KEY',
      ]) {
        expect(Object.keys(data)).not.toContain(secret);
      }
      const known = knownVariables();
      expect(Object.keys(data).filter((name) => !known.has(name))).toEqual([]);
      const config = loadConfig({ ...data, DATABASE_URL: 'postgres://svc:secret@postgres:5432/svc', ADMIN_TOKEN: 'x'.repeat(32) }, ROOT);
      expect(config.http.port).toBe(3000);
      expect(config.metrics).toEqual({ enabled: true, port: 9464 });
      // behind the ingress: a hop count, never `true` (every hop trusted, a client-written address believed)
      expect(config.http.trustProxy).toBe(1);
    });

    it('the Deployment reads the secrets from Secrets, the rest from the ConfigMap, and names only known variables', () => {
      const deployment = one('Deployment');
      const container: Container = deployment.spec.template.spec.containers[0];
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'svc-licensing-config' } }]);
      const env = new Map((container.env ?? []).map((variable) => [variable.name, variable]));
      for (const name of [
        'DATABASE_URL',
        'ADMIN_TOKEN',
        'REDIS_URL',
        'INSTALLER_GITHUB_TOKEN',
        'GITHUB_APP_ID',
        'GITHUB_APP_INSTALLATION_ID',
      ]) {
        expect({ name, secret: env.get(name)?.valueFrom?.secretKeyRef?.name }).toEqual({ name, secret: 'svc-licensing-secrets' });
      }
      const known = knownVariables();
      expect([...env.keys()].filter((name) => !known.has(name))).toEqual([]);
      const mounted = deployment.spec.template.spec.volumes.find((volume: { name: string }) => volume.name === 'github-app');
      expect(mounted.secret.secretName).toBe('svc-licensing-github-app');
      expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe(String(one('ConfigMap').data.METRICS_PORT));
      const ports = new Map((container.ports ?? []).map((port) => [port.name, port.containerPort]));
      expect(ports.get('http')).toBe(Number(one('ConfigMap').data.PORT));
      expect(ports.get('metrics')).toBe(Number(one('ConfigMap').data.METRICS_PORT));
      const service = one('Service');
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      for (const port of service.spec.ports) expect([...ports.keys()]).toContain(port.targetPort);
    });

    it('three replicas on PostgreSQL, Redis and an object store, spread over nodes, with nothing shared on disk (CONTRACT 19)', () => {
      const deployment = one('Deployment');
      expect(deployment.spec.replicas).toBe(3);
      const pod = deployment.spec.template.spec;
      const container: Container & { volumeMounts?: Array<{ name: string; mountPath: string }> } = pod.containers[0];
      const data = one('ConfigMap').data as Record<string, string>;
      expect(data.MODEL_STORE_URL).toMatch(/^s3:\/\/[a-z0-9.-]+(\/.+)?$/);
      expect(Object.keys(data)).not.toContain('MODEL_STORE_DIR');
      expect(Object.keys(data)).not.toContain('MODEL_HOST');
      const example = manifests().find((doc) => doc.kind === 'Secret' && doc.metadata.name === 'svc-licensing-secrets')!;
      expect(example.stringData.DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(example.stringData.REDIS_URL).toMatch(/^redis:\/\//);
      const env = new Map((container.env ?? []).map((variable) => [variable.name, variable]));
      expect(env.get('REDIS_URL')?.valueFrom?.secretKeyRef).toEqual({ name: 'svc-licensing-secrets', key: 'REDIS_URL' });
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
        expect(env.get(name)?.valueFrom?.secretKeyRef).toEqual({ name: 'svc-licensing-secrets', key: name, optional: true });
      }
      // no model store on an emptyDir, nor on any volume: the only emptyDir is /tmp (the root filesystem is read-only)
      const emptyDirs = (pod.volumes as Array<{ name: string; emptyDir?: object }>).filter((volume) => volume.emptyDir !== undefined);
      expect(emptyDirs.map((volume) => volume.name)).toEqual(['tmp']);
      expect((container.volumeMounts ?? []).filter((mount) => mount.name === 'tmp').map((mount) => mount.mountPath)).toEqual(['/tmp']);
      expect((container.volumeMounts ?? []).map((mount) => mount.mountPath).filter((path) => path.startsWith('/app'))).toEqual([]);
      expect(pod.topologySpreadConstraints[0]).toMatchObject({
        topologyKey: 'kubernetes.io/hostname',
        labelSelector: { matchLabels: deployment.spec.selector.matchLabels },
      });
    });

    it('no secret to make by hand beyond the database, the admin token and the store credentials: the signing key and link secret are generated', () => {
      for (const manifest of [one('Deployment'), one('Job')]) {
        const env = (manifest.spec.template.spec.containers[0] as Container).env ?? [];
        const required = env
          .filter((variable) => variable.valueFrom?.secretKeyRef && !(variable.valueFrom.secretKeyRef as { optional?: boolean }).optional)
          .map((variable) => variable.name);
        expect(required.filter((name) => !['DATABASE_URL', 'ADMIN_TOKEN', 'REDIS_URL'].includes(name))).toEqual([]);
        const names = env.map((variable) => variable.name);
        expect(names).not.toContain('MODEL_URL_SECRET');
      }
      const example = manifests().find((doc) => doc.kind === 'Secret' && doc.metadata.name === 'svc-licensing-secrets')!;
      expect(Object.keys(example.stringData)).not.toContain('LICENSE_SIGNING_KEY');
      expect(Object.keys(example.stringData)).not.toContain('MODEL_URL_SECRET');
    });

    it('the replicas and the migration Job read SECRETS_KEY (and NEW_SECRETS_KEY while moving) from the Secret', () => {
      for (const manifest of [one('Deployment'), one('Job')]) {
        const env = new Map(((manifest.spec.template.spec.containers[0] as Container).env ?? []).map((v) => [v.name, v]));
        for (const name of ['SECRETS_KEY', 'NEW_SECRETS_KEY']) {
          expect({ kind: manifest.kind, name, from: env.get(name)?.valueFrom?.secretKeyRef }).toEqual({
            kind: manifest.kind,
            name,
            from: { name: 'svc-licensing-secrets', key: name, optional: true },
          });
        }
      }
      const example = manifests().find((doc) => doc.kind === 'Secret' && doc.metadata.name === 'svc-licensing-secrets')!;
      expect(Object.keys(example.stringData)).toContain('SECRETS_KEY');
      expect(Object.keys(example.stringData)).not.toContain('NEW_SECRETS_KEY');
    });

    it('a PodDisruptionBudget keeps two of the three replicas through voluntary disruptions', () => {
      const budget = one('PodDisruptionBudget');
      expect(budget.apiVersion).toBe('policy/v1');
      expect(budget.spec.selector.matchLabels).toEqual(one('Deployment').spec.selector.matchLabels);
      expect(budget.spec.minAvailable).toBe(2);
      expect(budget.spec.minAvailable).toBeLessThan(one('Deployment').spec.replicas);
      expect(one('Kustomization').resources).toContain('pdb.yaml');
    });

    it("the migration Job runs the CLI's migrate command, with the image and database of the Deployment", () => {
      const job = one('Job');
      const container: Container = job.spec.template.spec.containers[0];
      expect(container.command).toEqual(['node', entryOf('cli'), 'migrate']);
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      const api: Container & { image: string } = one('Deployment').spec.template.spec.containers[0];
      expect((container as Container & { image: string }).image).toBe(api.image);
      expect(container.env?.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name).toBe(
        'svc-licensing-secrets',
      );
      expect(api.command).toEqual(commandOf('start:built'));
    });
  });

  describe('Dockerfile', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const instructions = dockerfile
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));

    it('builds on node:20-bookworm-slim with the tools better-sqlite3 needs, npm ci, npm run build, then prunes dev dependencies', () => {
      expect(instructions.filter((line) => line.startsWith('FROM '))).toEqual([
        'FROM node:20-bookworm-slim AS build',
        'FROM node:20-bookworm-slim AS runtime',
      ]);
      expect(dockerfile).toMatch(/apt-get install[^\n]*\\\n?[^\n]*python3 make g\+\+|python3 make g\+\+/);
      const runs = instructions.filter((line) => line.startsWith('RUN ')).join('\n');
      expect(runs).toContain('npm ci');
      expect(runs).toContain('npm run build');
      expect(runs).toContain('npm prune --omit=dev');
    });

    it('runs as a non-root user, exposes 3000, checks /api/health/live and starts the command of start:built (node, its heap flags, the entry point the build produces)', () => {
      const runtime = instructions.slice(instructions.findIndex((line) => line.startsWith('FROM node:20-bookworm-slim AS runtime')));
      expect(runtime.filter((line) => line.startsWith('USER '))).toEqual(['USER node']);
      expect(runtime).toContain('EXPOSE 3000');
      expect(runtime.find((line) => line.startsWith('HEALTHCHECK '))).toContain('/api/health/live');
      const cmd = JSON.parse(runtime.find((line) => line.startsWith('CMD '))!.slice(4)) as string[];
      expect(cmd).toEqual(commandOf('start:built'));
      for (const entry of [entryOf('start:built'), entryOf('cli')]) {
        expect({ entry, built: existsSync(join(ROOT, entry)) }).toEqual({ entry, built: true });
      }
      const copies = runtime.filter((line) => line.startsWith('COPY ')).join('\n');
      for (const part of ['/app/dist', '/app/node_modules', 'config']) expect(copies).toContain(part);
    });

    it('the build stage copies what `nest build` reads: nest-cli.json, its webpack config, the tsconfigs of the apps', () => {
      const nest = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as {
        compilerOptions: { webpack: boolean; webpackConfigPath: string };
        projects: Record<string, { type: string; compilerOptions?: { tsConfigPath?: string } }>;
      };
      expect(nest.compilerOptions.webpack).toBe(true);
      const copied = instructions
        .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
        .flatMap((line) => line.split(/\s+/).slice(1, -1));
      const read = ['nest-cli.json', nest.compilerOptions.webpackConfigPath, 'tsconfig.json', 'tsconfig.build.json'];
      for (const [name, project] of Object.entries(nest.projects)) {
        if (project.type === 'application' && name !== 'bench') read.push(project.compilerOptions!.tsConfigPath!);
      }
      for (const file of read) {
        expect({ file, copied: copied.some((source) => file === source || file.startsWith(`${source}/`)) }).toEqual({ file, copied: true });
      }
    });

    it('copies only files that exist, and .dockerignore keeps dependencies, builds and secrets out of the context', () => {
      for (const line of instructions.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
        const sources = line.split(/\s+/).slice(1, -1);
        for (const source of sources) expect({ source, exists: existsSync(join(ROOT, source)) }).toEqual({ source, exists: true });
      }
      const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
        .split('\n')
        .map((line) => line.trim());
      for (const entry of ['node_modules', 'dist', 'data', '.git', '.env']) expect(ignored).toContain(entry);
    });
  });

  describe('The built service', () => {
    /** Starts the built service with `env` on a SQLite file of its own; it is expected to exit at once. */
    function startRefused(env: Record<string, string>): { status: number | null; lines: string[] } {
      const folder = mkdtempSync(join(tmpdir(), 'svc-deploy-'));
      try {
        const ran = spawnSync(process.execPath, [join(ROOT, entryOf('start:built'))], {
          env: {
            PATH: process.env.PATH ?? '',
            HOST: '127.0.0.1',
            PORT: '0',
            DATABASE_URL: `sqlite:${join(folder, 'service.db')}`,
            MODEL_STORE_DIR: join(folder, 'models'),
            ...env,
          },
          encoding: 'utf8',
          timeout: 20_000,
        });
        return { status: ran.status, lines: `${ran.stdout}${ran.stderr}`.split('\n').filter((line) => line.trim() !== '') };
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }

    it('refuses TRUST_PROXY=true (every hop trusted) at start-up, saying what to write instead', () => {
      for (const value of ['true', 'yes']) {
        expect(startRefused({ TRUST_PROXY: value })).toEqual({
          status: 1,
          lines: [
            expect.stringMatching(
              /^Invalid configuration: TRUST_PROXY=true trusts every hop, .*TRUST_PROXY=1 .*TRUST_PROXY=10\.0\.0\.0\/8/,
            ),
          ],
        });
      }
    });

    it('refuses an ADMIN_TOKEN shorter than 32 characters at start-up, naming it and how to make one, never echoing it', () => {
      const short = 'a-31-character-admin-token-0123';
      expect(short).toHaveLength(31);
      const refused = startRefused({ ADMIN_TOKEN: short });
      expect(refused).toEqual({
        status: 1,
        lines: ['Invalid configuration: ADMIN_TOKEN must be at least 32 characters (make one with: openssl rand -hex 32)'],
      });
    });
  });
});
