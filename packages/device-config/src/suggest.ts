/** Levenshtein distance between two strings (insert, delete and substitute cost 1). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate closest to `word`, if it is close enough to be a plausible typo. Ties go to the
 * earliest candidate, so the answer is deterministic for a given candidate order.
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  // A difference in case only is the likeliest typo, whatever the lengths.
  const sameLetters = list.find((candidate) => candidate !== word && candidate.toLowerCase() === word.toLowerCase());
  if (sameLetters !== undefined) return sameLetters;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best !== undefined && bestDistance > 0 && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** `"; did you mean 'x'?"` or the empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? '' : `; did you mean '${match}'?`;
}
