/** fast-check settings: structurally a fast-check `Parameters` object, so no fast-check import. */
export interface PropertyTestOptions {
  readonly numRuns: number;
  readonly seed?: number;
}

/**
 * Settings for one property: `FC_NUM_RUNS` (a positive number, rounded) overrides `defaultRuns`
 * for every property, and `FC_SEED` (an integer) replays the seed a failure printed.
 * Anything else in those variables is ignored rather than turned into NaN runs.
 */
export function fcOptions(defaultRuns = 100, env: Readonly<Record<string, string | undefined>> = process.env): PropertyTestOptions {
  const runs = Number(env['FC_NUM_RUNS'] ?? '');
  const numRuns = Number.isFinite(runs) && runs >= 0.5 ? Math.round(runs) : defaultRuns;
  const seedText = env['FC_SEED'];
  const seed = Number(seedText ?? '');
  return seedText !== undefined && seedText.trim() !== '' && Number.isInteger(seed) ? { numRuns, seed } : { numRuns };
}
