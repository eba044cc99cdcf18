import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'ir',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
