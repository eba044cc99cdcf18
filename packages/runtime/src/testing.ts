/**
 * Property-test settings for this package's `*.property.test.ts` files: `FC_NUM_RUNS` sets the
 * run count and `FC_SEED` replays a seed. Not exported from the package.
 */
export function fcOptions(defaultRuns = 100): { numRuns: number; seed?: number } {
  const runs = Number(process.env['FC_NUM_RUNS'] ?? '');
  const numRuns = Number.isFinite(runs) && runs > 0 ? Math.max(1, Math.round(runs)) : defaultRuns;
  const seedText = process.env['FC_SEED'];
  const seed = Number(seedText ?? '');
  return seedText !== undefined && seedText !== '' && Number.isInteger(seed) ? { numRuns, seed } : { numRuns };
}
