import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'gpu-targets',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
