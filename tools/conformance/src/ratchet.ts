/**
 * The ratchet: a committed list of tests that pass (one corpus path per line, sorted). CI fails
 * when any of them stops passing; `--update-ratchet` adds newly passing tests and never removes
 * one, so the list only grows and a regression cannot hide by dropping out of it.
 */

/** Paths listed in a ratchet file; blank lines are ignored, order and duplicates are not kept. */
export function parseRatchet(text: string): string[] {
  const paths = new Set<string>();
  for (const line of text.split('\n')) {
    const path = line.trim();
    if (path !== '') paths.add(path);
  }
  return [...paths];
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The file text for `paths`: sorted by code unit (locale-independent), unique, one per line. */
export function formatRatchet(paths: Iterable<string>): string {
  const sorted = [...new Set(paths)].sort(byCodeUnit);
  return sorted.map((p) => `${p}\n`).join('');
}

export interface RatchetOutcome {
  /** Whether the test counts as passing (PASS, or an expected failure that failed). */
  readonly passed: boolean;
  /** How it ended, for the report, e.g. `FAIL(timeout)`. */
  readonly label: string;
}

export interface RatchetRegression {
  readonly path: string;
  readonly reason: string;
}

export interface RatchetCheck {
  readonly listed: number;
  readonly stillPassing: number;
  readonly regressions: readonly RatchetRegression[];
}

/**
 * Compares the listed tests with this run's outcomes. A listed test that did not pass, was not
 * run, or no longer exists in the corpus is a regression.
 */
export function checkRatchet(
  listed: readonly string[],
  outcomes: ReadonlyMap<string, RatchetOutcome>,
  known: ReadonlySet<string>,
): RatchetCheck {
  const regressions: RatchetRegression[] = [];
  let stillPassing = 0;
  for (const path of [...listed].sort(byCodeUnit)) {
    const outcome = outcomes.get(path);
    if (!known.has(path)) regressions.push({ path, reason: 'not in SCORED.tsv' });
    else if (outcome === undefined) regressions.push({ path, reason: 'not run' });
    else if (!outcome.passed) regressions.push({ path, reason: outcome.label });
    else stillPassing++;
  }
  return { listed: listed.length, stillPassing, regressions };
}

/** The listed paths plus the tests that passed now; nothing listed is ever removed. */
export function updateRatchet(listed: readonly string[], passedNow: Iterable<string>): { paths: string[]; added: string[] } {
  const before = new Set(listed);
  const added = [...new Set(passedNow)].filter((p) => !before.has(p)).sort(byCodeUnit);
  return { paths: [...before, ...added].sort(byCodeUnit), added };
}
