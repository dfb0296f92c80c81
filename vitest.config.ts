import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each file builds its own app on its own database (a temp dir, or a PostgreSQL schema).
    fileParallelism: true,
  },
});
