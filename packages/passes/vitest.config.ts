import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'passes',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
