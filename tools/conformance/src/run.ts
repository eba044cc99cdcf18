/** Runs tests in parallel and hands results back in selection order, whatever order they end in. */
import { basename, join } from 'node:path';
import { runTest, type ExecuteOptions, type TestResult } from './execute.js';
import type { ScoredTest } from './scored.js';

export interface RunPlan extends Omit<ExecuteOptions, 'workDir'> {
  readonly tests: readonly ScoredTest[];
  /** Each test gets `<workRoot>/<nnnn>-<file name>`. */
  readonly workRoot: string;
  readonly jobs: number;
}

/**
 * Runs `plan.tests` with at most `plan.jobs` at a time. `onResult` is called once per test in
 * selection order (a result waits until all earlier ones are reported), so output is the same
 * for any job count. Stops starting new tests once `plan.signal` is aborted.
 */
export async function runTests(plan: RunPlan, onResult: (result: TestResult, index: number) => void = () => {}): Promise<TestResult[]> {
  const results: (TestResult | undefined)[] = new Array(plan.tests.length);
  let nextToStart = 0;
  let nextToReport = 0;
  const width = String(plan.tests.length).length;

  const worker = async (): Promise<void> => {
    while (nextToStart < plan.tests.length && plan.signal?.aborted !== true) {
      const index = nextToStart++;
      const test = plan.tests[index]!;
      const workDir = join(plan.workRoot, `${String(index).padStart(width, '0')}-${basename(test.path)}`);
      results[index] = await runTest(test, { ...plan, workDir });
      while (nextToReport < results.length && results[nextToReport] !== undefined) {
        onResult(results[nextToReport]!, nextToReport);
        nextToReport++;
      }
    }
  };
  const jobs = Math.max(1, Math.min(plan.jobs, plan.tests.length));
  await Promise.all(Array.from({ length: jobs }, worker));
  return results.filter((r): r is TestResult => r !== undefined);
}
