import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'pass-manager',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
