import { describe, expect, it } from 'vitest';
import { asMap, parseYaml, readRepoFile } from './files.ts';

/**
 * compose.yaml's `postgres` profile, checked without a Docker engine: PostgreSQL 15+ on its own
 * volume with a health check, `migrate-pg` once it is healthy, then two `kassa api` replicas and
 * one `kassa worker`, all on it through KASSA_DATABASE_URL; the default (SQLite) stack untouched.
 */
const read = readRepoFile;

const compose = asMap(parseYaml(read('compose.yaml')));
const services = asMap(compose.services);
const inProfile = Object.entries(services).filter(([, s]) => asMap(s).profiles !== undefined);
const service = (name: string) => asMap(services[name]);
const env = (name: string) => asMap(service(name).environment);
const KASSA = ['migrate-pg', 'api-pg', 'worker-pg'];
/** Compose's interpolation of the password from .env (empty when unset: PostgreSQL then refuses to start). */
const PASSWORD = ['$', '{POSTGRES_PASSWORD:-}'].join('');

describe('compose.yaml, profile postgres', () => {
  it('holds PostgreSQL and the three Kassa services, and only they are in the profile', () => {
    expect(inProfile.map(([name]) => name).sort()).toEqual(['api-pg', 'migrate-pg', 'postgres', 'worker-pg']);
    for (const [, s] of inProfile) expect(asMap(s).profiles).toEqual(['postgres']);
  });

  it('runs PostgreSQL 15 or newer on its own volume, never published, with a health check', () => {
    const pg = service('postgres');
    const major = Number(/^postgres:(\d+)/.exec(String(pg.image))?.[1]);
    expect(major).toBeGreaterThanOrEqual(15);
    expect(pg.volumes).toEqual(['kassa-pg:/var/lib/postgresql/data']);
    expect(Object.keys(asMap(compose.volumes))).toEqual(['kassa-data', 'kassa-pg']);
    expect(pg.ports).toBeUndefined();
    expect((asMap(pg.healthcheck).test as string[]).slice(0, 2)).toEqual(['CMD', 'pg_isready']);
    expect(env('postgres').POSTGRES_PASSWORD).toBe(PASSWORD);
  });

  it('points every Kassa service at that database, with the password from .env', () => {
    const pg = env('postgres');
    for (const name of KASSA) {
      const s = service(name);
      expect(s.build).toBe('.');
      expect(s.image).toBe('kassa:latest');
      expect(s.env_file).toBe('.env');
      expect(env(name).KASSA_DATABASE_URL).toBe(
        `postgres://${pg.POSTGRES_USER}:${PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`,
      );
      expect(s.volumes).toBeUndefined(); // no SQLite file
    }
    expect(read('.env.example')).toMatch(/^# ?POSTGRES_PASSWORD=/m);
  });

  it('migrates once PostgreSQL is healthy, then starts two api replicas and one worker', () => {
    expect(service('migrate-pg').command).toEqual(['migrate']);
    expect(asMap(service('migrate-pg').depends_on)).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(service('migrate-pg').restart).toBe('no');
    expect(service('api-pg').command).toEqual(['api']);
    expect(asMap(service('api-pg').deploy).replicas).toBe('2');
    expect(service('worker-pg').command).toEqual(['worker']);
    expect(service('worker-pg').deploy).toBeUndefined();
    for (const name of ['api-pg', 'worker-pg']) {
      expect(asMap(service(name).depends_on)).toEqual({
        'migrate-pg': { condition: 'service_completed_successfully' },
      });
      expect(service(name).restart).toBe('unless-stopped');
    }
  });

  it('gives each api replica a host port of its own and keeps the admin listener inside', () => {
    expect(service('api-pg').ports).toEqual(['180-181:180']);
    expect(env('api-pg').PORT).toBe('180');
    expect(service('api-pg').expose).toEqual(['9180']);
    expect(env('api-pg').KASSA_ADMIN_HOST).toBe('0.0.0.0');
    expect((asMap(service('worker-pg').healthcheck).test as string[]).join(' ')).toContain(
      'http://api-pg:180/readyz',
    );
  });

  it('leaves the default stack on SQLite: no PostgreSQL URL there', () => {
    for (const [name, s] of Object.entries(services)) {
      if (asMap(s).profiles !== undefined) continue;
      expect(asMap(asMap(s).environment).KASSA_DATABASE_URL, name).toBeUndefined();
    }
  });
});
