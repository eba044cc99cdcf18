import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sycl-conventions',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
