/**
 * fast-check settings for this package's property tests: `FC_NUM_RUNS` scales the run count
 * (default 100 per property) and `FC_SEED` replays a seed.
 */
export function fcOptions(defaultRuns = 100): { numRuns: number; seed?: number } {
  const runs = Number.parseInt(process.env['FC_NUM_RUNS'] ?? '', 10);
  const seed = Number.parseInt(process.env['FC_SEED'] ?? '', 10);
  return {
    numRuns: Number.isFinite(runs) && runs > 0 ? runs : defaultRuns,
    ...(Number.isFinite(seed) ? { seed } : {}),
  };
}
