/**
 * The candidate a misspelled `word` most likely meant: one differing only in case, else the
 * closest by edit distance if that is small enough to be a typo (ties go to the smaller name, so
 * the answer does not depend on candidate order). For "unknown X" diagnostics of passes, options
 * and command-line tools built on the pass manager.
 */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const caseOnly = list.filter((candidate) => candidate !== word && candidate.toLowerCase() === word.toLowerCase()).sort()[0];
  if (caseOnly !== undefined) return caseOnly;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    const d = editDistance(word, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** `; did you mean 'x'?` (with `prefix` before the name, e.g. `-`) or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>, prefix = ''): string {
  const hint = suggest(word, candidates);
  return hint === undefined ? '' : `; did you mean '${prefix}${hint}'?`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
