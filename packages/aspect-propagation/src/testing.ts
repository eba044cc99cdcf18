/**
 * Property-test settings shared by this package's `*.property.test.ts` files: `FC_NUM_RUNS` scales
 * the run count and `FC_SEED` replays a seed. Structurally a fast-check `Parameters` object, so
 * this module needs no fast-check import.
 */
export interface PropertyTestOptions {
  readonly numRuns: number;
  readonly seed?: number;
}

export function fcOptions(defaultRuns = 200): PropertyTestOptions {
  const runs = Number(process.env['FC_NUM_RUNS']);
  const seed = Number(process.env['FC_SEED']);
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns,
    ...(Number.isInteger(seed) && process.env['FC_SEED'] !== '' ? { seed } : {}),
  };
}
