import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'post-link',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
