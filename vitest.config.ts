import { defineConfig } from 'vitest/config';

// One root config; each package is a project so `vitest run --project <name>` works.
export default defineConfig({
  test: {
    projects: ['packages/*', 'tools/*'],
  },
});
