/**
 * fast-check parameters for the property tests: `FC_NUM_RUNS` sets the run count per property
 * (default `baseRuns`) and `FC_SEED` replays a failing seed.
 */
export function fcOptions(baseRuns = 100): { numRuns: number; seed?: number } {
  const runs = Number(process.env['FC_NUM_RUNS'] ?? '');
  const numRuns = Number.isFinite(runs) && runs > 0 ? Math.max(1, Math.round(runs)) : baseRuns;
  const seedText = process.env['FC_SEED'];
  const seed = Number(seedText ?? '');
  return seedText !== undefined && seedText !== '' && Number.isInteger(seed) ? { numRuns, seed } : { numRuns };
}
