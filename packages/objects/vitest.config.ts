import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'objects',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
