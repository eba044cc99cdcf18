import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'offload-wrapper',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Every SPIR-V image a test makes goes through spirv-val (the SPIR-V step fails on an invalid one).
    env: { SYCLKIT_SPIRV_VAL: '1' },
  },
});
