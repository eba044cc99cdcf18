import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'offload-wrapper',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
