import { defineConfig } from 'drizzle-kit';

// The PostgreSQL schema (src/db/pg/schema mirrors src/db/schema table for table) and its migrations,
// beside SQLite's in drizzle/: `npx drizzle-kit generate --config drizzle.pg.config.ts`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/pg/schema/index.ts',
  out: './drizzle/pg',
});
