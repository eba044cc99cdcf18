/**
 * The candidate a misspelled `word` most likely meant: one differing only in case, else the
 * closest by edit distance if that is small enough to be a typo (at most max(2, ⌊length/3⌋)).
 * Never `word` itself. Ties go to the smaller name (code-unit order), so the answer does not
 * depend on the order the candidates come in (a Map's, a file's, a table's). The one
 * did-you-mean of syclkit: unknown passes, options, targets, aspects, kernels and keys.
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
  return best !== undefined && bestDistance > 0 && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** `; did you mean 'x'?` (with `prefix` before the name, e.g. `-`) or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>, prefix = ''): string {
  const hint = suggest(word, candidates);
  return hint === undefined ? '' : `; did you mean '${prefix}${hint}'?`;
}

/** Levenshtein distance (insert, delete and substitute cost 1). */
export function editDistance(a: string, b: string): number {
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
