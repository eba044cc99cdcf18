import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/bundle-setup.ts'],
    // Every SPIR-V image a test makes goes through spirv-val (the SPIR-V step fails on an invalid one).
    env: { SYCLKIT_SPIRV_VAL: '1' },
    // These tests run whole compiles in child processes; 5 s is too little on a loaded 2-core host.
    testTimeout: 30_000,
  },
});
