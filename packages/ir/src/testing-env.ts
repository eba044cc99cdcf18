/** fast-check run settings from the environment: FC_NUM_RUNS scales runs, FC_SEED replays a seed. */
export function fcOptions(defaultRuns: number): { numRuns: number; seed?: number } {
  const runs = Number(process.env['FC_NUM_RUNS'] ?? defaultRuns);
  const seed = process.env['FC_SEED'];
  return seed === undefined ? { numRuns: runs } : { numRuns: runs, seed: Number(seed) };
}
