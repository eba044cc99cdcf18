import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'conformance',
    include: ['src/**/*.test.ts'],
    // The end-to-end tests start bash, FileCheck and node processes; give slow machines room.
    testTimeout: 30_000,
  },
});
