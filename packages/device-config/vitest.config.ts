import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'device-config',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
