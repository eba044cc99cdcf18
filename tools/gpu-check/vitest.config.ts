import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'gpu-check',
    include: ['src/**/*.test.ts'],
    // The end-to-end test starts node processes and compiles a C library; give slow machines room.
    testTimeout: 60_000,
  },
});
