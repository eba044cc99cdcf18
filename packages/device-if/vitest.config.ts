import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'device-if',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
