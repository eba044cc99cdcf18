import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'aspect-propagation',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
