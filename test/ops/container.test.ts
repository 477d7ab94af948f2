import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAINS } from '../../src/domain/chains.ts';
import {
  asMap,
  dockerfileStages,
  dockerignore,
  execForm,
  parseYaml,
  readRepoFile,
  stageEnv,
} from './files.ts';

/**
 * The container files, checked without a Docker engine: compose.yaml parses and wires migrate →
 * api + worker on one volume; the Dockerfile's stages are what docs/operations.md promises; the
 * build context leaves out secrets, databases and node_modules but keeps what the build needs.
 * (bundle.test.ts runs the image's command itself.)
 */
const root = join(import.meta.dirname, '../..');
const read = readRepoFile;

describe('the YAML reader', () => {
  it('reads maps, sequences, flow sequences, quotes and comments', () => {
    expect(
      parseYaml('a: 1 # c\nb:\n  - "x #1"\n  - y\nc: ["p", \'q\']\nd:\n  e:\n    f: "0"\ng:\n- z\n'),
    ).toEqual({ a: '1', b: ['x #1', 'y'], c: ['p', 'q'], d: { e: { f: '0' } }, g: ['z'] });
  });

  it('refuses what it does not understand instead of misreading it', () => {
    expect(() => parseYaml('a: &x 1\nb: *x\n')).toThrow(/unsupported/);
    expect(() => parseYaml('a: |\n  text\n')).toThrow(/unsupported/);
    expect(() => parseYaml('a:\n  - b: 1\n')).toThrow(/maps in sequences/);
    expect(() => parseYaml('a: 1\na: 2\n')).toThrow(/duplicate/);
    expect(() => parseYaml('a:\n\tb: 1\n')).toThrow(/tabs/);
  });
});

describe('compose.yaml', () => {
  const compose = asMap(parseYaml(read('compose.yaml')));
  // The default stack (SQLite): the services in no profile. compose-postgres.test.ts checks the rest.
  const services = Object.fromEntries(
    Object.entries(asMap(compose.services)).filter(([, s]) => asMap(s).profiles === undefined),
  );
  const final = dockerfileStages(read('Dockerfile')).at(-1) ?? [];
  const imageEnv = stageEnv(final);

  it('has the migrate, api and worker services, each on the same locally built image', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'migrate', 'worker']);
    for (const s of Object.values(services)) {
      expect(asMap(s).build).toBe('.');
      expect(asMap(s).image).toBe('kassa:latest');
    }
  });

  it('runs kassa migrate, api and worker (commands the CLI knows)', () => {
    const main = read('src/main.ts');
    for (const [name, command] of [
      ['migrate', 'migrate'],
      ['api', 'api'],
      ['worker', 'worker'],
    ]) {
      expect(asMap(services[name as string]).command).toEqual([command]);
      expect(main).toContain(`case '${command}':`);
    }
  });

  it('starts api and worker only after migrate completed successfully, and restarts them', () => {
    for (const name of ['api', 'worker']) {
      const s = asMap(services[name]);
      expect(asMap(s.depends_on)).toEqual({ migrate: { condition: 'service_completed_successfully' } });
      expect(s.restart).toBe('unless-stopped');
    }
    expect(asMap(services.migrate).restart).toBe('no');
  });

  it('shares one named volume at /data with KASSA_DB in it, as the image expects', () => {
    expect(Object.keys(asMap(compose.volumes))).toContain('kassa-data');
    expect(imageEnv.KASSA_DB).toBe('/data/kassa.db');
    const volumeDirs = final.filter((i) => i.op === 'VOLUME').flatMap((i) => execForm(i.args));
    for (const s of Object.values(services)) {
      expect(asMap(s).volumes).toEqual(['kassa-data:/data']);
      expect(asMap(asMap(s).environment).KASSA_DB).toBe(imageEnv.KASSA_DB);
      expect(volumeDirs).toContain('/data');
    }
  });

  it('takes secrets from .env, which .env.example documents', () => {
    for (const s of Object.values(services)) expect(asMap(s).env_file).toBe('.env');
    const example = read('.env.example');
    for (const name of [
      'KASSA_MNEMONIC',
      'KASSA_MNEMONIC_FILE',
      'KASSA_MASTER_KEY',
      'KASSA_MASTER_KEY_FILE',
      'KASSA_NETWORK',
      'KASSA_BASE_URL',
      'KASSA_METRICS_TOKEN',
      ...CHAINS.map((c) => `KASSA_RPC_${c}`),
    ]) {
      expect(example).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
    expect(example).toMatch(/^KASSA_MNEMONIC=$/m);
    expect(example).toMatch(/^KASSA_MASTER_KEY=$/m);
  });

  it('names in .env.example only variables Kassa reads', () => {
    const sources = ['src/config/load.ts', 'src/config/schema.ts', 'src/lib/logger.ts'].map(read).join('\n');
    const names = [...read('.env.example').matchAll(/^#? ?(KASSA_[A-Z_]+)=/gm)].map((m) => m[1] as string);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const generic = name
        .replace(/^KASSA_RPC_.*/, 'KASSA_RPC_$')
        .replace(/^KASSA_CONFIRMATIONS_.*/, 'KASSA_CONFIRMATIONS_$')
        .replace(/_FILE$/, '');
      expect(sources.includes(generic.replace('$', '$' + '{chain}')) || sources.includes(generic), name).toBe(
        true,
      );
    }
  });

  it('publishes the API on port 180, the port the image exposes and Kassa listens on', () => {
    const api = asMap(services.api);
    expect(api.ports).toEqual(['180:180']);
    expect(final.filter((i) => i.op === 'EXPOSE').map((i) => i.args)).toEqual(['180']);
    expect(imageEnv.PORT).toBe('180');
    expect(asMap(api.environment).PORT).toBe('180');
    expect(services.worker && asMap(services.worker).ports).toBeUndefined();
  });

  it('keeps the admin listener (metrics, readiness detail) inside the compose network', () => {
    const api = asMap(services.api);
    expect(api.expose).toEqual(['9180']);
    expect(asMap(api.environment).KASSA_ADMIN_PORT).toBe('9180');
    expect(asMap(api.environment).KASSA_ADMIN_HOST).toBe('0.0.0.0');
    for (const s of Object.values(services))
      expect(((asMap(s).ports ?? []) as string[]).some((p) => p.includes('9180'))).toBe(false);
  });

  it('checks health: api on /healthz, worker through the API’s /readyz, migrate not at all', () => {
    const test = (name: string) => asMap(asMap(services[name]).healthcheck).test as string[];
    expect(test('api')[0]).toBe('CMD');
    expect(test('api').join(' ')).toContain('http://127.0.0.1:180/healthz');
    expect(test('worker').join(' ')).toContain('http://api:180/readyz');
    expect(asMap(asMap(services.migrate).healthcheck).disable).toBe('true');
  });
});

describe('Dockerfile', () => {
  const stages = dockerfileStages(read('Dockerfile'));
  const [build, runtime] = stages as [(typeof stages)[number], (typeof stages)[number]];
  const runs = (stage: typeof build) =>
    stage
      .filter((i) => i.op === 'RUN')
      .map((i) => i.args)
      .join('\n');

  it('has a build stage and a runtime stage, both on Node 22 LTS bookworm-slim', () => {
    expect(stages).toHaveLength(2);
    expect(build[0]?.args).toBe('node:22-bookworm-slim AS build');
    expect(runtime[0]?.args).toBe('node:22-bookworm-slim');
  });

  it('builds better-sqlite3 with python3, make and g++ and runs npm run build', () => {
    expect(runs(build)).toMatch(/apt-get install[^\n]*python3[^\n]*make[^\n]*g\+\+/);
    expect(runs(build)).toContain('npm ci');
    expect(runs(build)).toContain('npm rebuild better-sqlite3');
    expect(runs(build)).toContain('npm run build');
    expect(JSON.parse(read('package.json')).scripts.build).toContain('scripts/build.ts');
  });

  it('ships only the build output: no npm install, no compiler, no sources in the runtime stage', () => {
    expect(runtime.filter((i) => i.op === 'COPY').map((i) => i.args)).toEqual([
      '--from=build /src/dist/ /app/',
    ]);
    expect(runs(runtime)).not.toMatch(/npm|apt-get|g\+\+|python/);
  });

  it('runs as a non-root user that owns /data', () => {
    const users = runtime.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(runs(runtime)).toContain(`chown ${users[0]}:${users[0]} /data`);
    const userIndex = runtime.findIndex((i) => i.op === 'USER');
    expect(runtime.findIndex((i) => i.op === 'ENTRYPOINT')).toBeGreaterThan(userIndex);
  });

  it('checks /healthz and starts `kassa start` through the bundle', () => {
    const health = runtime.find((i) => i.op === 'HEALTHCHECK')?.args ?? '';
    const cmd = /\bCMD\s+(\[.*\])$/.exec(health)?.[1] ?? '[]';
    expect(execForm(cmd).join(' ')).toContain('/healthz');
    expect(execForm(runtime.find((i) => i.op === 'ENTRYPOINT')?.args ?? '')).toEqual([
      'node',
      '/app/kassa.mjs',
    ]);
    expect(execForm(runtime.find((i) => i.op === 'CMD')?.args ?? '')).toEqual(['start']);
  });
});

describe('the build context (.dockerignore)', () => {
  const ignore = dockerignore(read('.dockerignore'));

  /** Every file Docker would send, walking the checkout as it stands. */
  function context(dir = ''): string[] {
    const out: string[] = [];
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (ignore.excluded(path) && !ignore.reincludesUnder(path)) continue;
        out.push(...context(path));
      } else if (!ignore.excluded(path)) out.push(path);
    }
    return out;
  }

  it('matches like Docker: rooted patterns, **/, directories, last rule wins', () => {
    const m = dockerignore('*.db\n**/x.log\nsecret/\n!secret/keep\n');
    expect(m.excluded('a.db')).toBe(true);
    expect(m.excluded('sub/a.db')).toBe(false);
    expect(m.excluded('deep/er/x.log')).toBe(true);
    expect(m.excluded('deep/ax.log')).toBe(false);
    expect(m.excluded('secret/a/b')).toBe(true);
    expect(m.excluded('secret/keep')).toBe(false);
  });

  it('never sends secrets, databases, node_modules, .git or build output', () => {
    for (const path of [
      '.env',
      'deploy/.env',
      '.env.production',
      'data/kassa.db',
      'src/x.db-wal',
      'node_modules/hono/package.json',
      'scripts/node_modules/x',
      '.git/HEAD',
      'dist/kassa.mjs',
      'coverage/index.html',
      '.vitest/results.json',
      'test/ops/bundle.test.ts',
      'bench/results/startup.md',
    ])
      expect(ignore.excluded(path), path).toBe(true);
  });

  it('sends what the build stage needs', () => {
    for (const path of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'wrangler-free.config.ts',
      'scripts/build.ts',
      'scripts/bundle-entry.ts',
      'src/main.ts',
      'workers/main.ts',
      'drizzle/meta/_journal.json',
    ])
      expect(ignore.excluded(path), path).toBe(false);
  });

  it('is small and clean as the checkout stands (whatever other work left lying around)', () => {
    const files = context();
    expect(files).toContain('src/main.ts');
    expect(
      files.filter((f) => /(^|\/)(\.env(\..*)?|.*\.db(-wal|-shm)?|.*\.log)$/.test(f) && f !== '.env.example'),
    ).toEqual([]);
    expect(files.filter((f) => f.startsWith('node_modules/') || f.includes('/node_modules/'))).toEqual([]);
    const bytes = files.reduce((n, f) => n + statSync(join(root, f)).size, 0);
    expect(bytes).toBeLessThan(20 * 1024 * 1024);
  });
});
