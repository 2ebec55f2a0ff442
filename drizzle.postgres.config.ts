// drizzle-kit's configuration for the PostgreSQL schema (the SQLite one is given on the command
// line by `npm run db:generate`). `npm run db:generate:postgres -- --name <what>` writes the next
// migration into migrations/postgres; no database is needed to generate.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/postgres/schema.ts',
  out: './migrations/postgres',
});
