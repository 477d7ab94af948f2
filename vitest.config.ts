import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'workers/**/*.test.ts',
      'test/**/*.test.ts',
      'clients/*/test/**/*.test.ts',
    ],
    // One throwaway PostgreSQL cluster per run, for the suites that run on both engines.
    globalSetup: ['test/setup/postgres.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
