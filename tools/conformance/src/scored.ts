/**
 * `SCORED.tsv`: one row per corpus test, `path<TAB>tier<TAB>reason`, with a `path tier reason`
 * header. Tiers choose what a run covers: `core` (the conformance target), `extended`, `skip`.
 */

export const TIERS = ['core', 'extended', 'skip'] as const;
export type Tier = (typeof TIERS)[number];

export interface ScoredTest {
  /** Path relative to the corpus root, e.g. `llvm/test/tools/sycl-post-link/...ll`. */
  readonly path: string;
  readonly tier: Tier;
  readonly reason: string;
}

/** Malformed SCORED.tsv; the message starts with `file:line:`. */
export class ScoredFormatError extends Error {
  override readonly name = 'ScoredFormatError';
}

function isTier(text: string): text is Tier {
  return (TIERS as readonly string[]).includes(text);
}

export function parseScored(text: string, fileName = 'SCORED.tsv'): ScoredTest[] {
  const tests: ScoredTest[] = [];
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('#')) return;
    const fields = line.split('\t');
    if (lineNumber === 1 && fields[0] === 'path' && fields[1] === 'tier') return;
    const [path = '', tier = '', reason = ''] = fields;
    if (path === '' || fields.length < 2) {
      throw new ScoredFormatError(`${fileName}:${lineNumber}:1: expected 'path<TAB>tier<TAB>reason', got '${line}'`);
    }
    if (!isTier(tier)) {
      const column = path.length + 2;
      throw new ScoredFormatError(`${fileName}:${lineNumber}:${column}: unknown tier '${tier}' (expected ${TIERS.join(', ')})`);
    }
    const previous = seen.get(path);
    if (previous !== undefined) {
      throw new ScoredFormatError(`${fileName}:${lineNumber}:1: '${path}' is listed twice (first at line ${previous})`);
    }
    seen.set(path, lineNumber);
    tests.push({ path, tier, reason });
  });
  return tests;
}

/** Bad `--tier` value. */
export class TierSpecError extends Error {
  override readonly name = 'TierSpecError';
}

/** `core`, `extended,skip`, `all`, ... → the set of tiers; throws TierSpecError. */
export function parseTierList(spec: string): ReadonlySet<Tier> {
  const tiers = new Set<Tier>();
  const parts = spec.split(',').map((s) => s.trim());
  for (const part of parts) {
    if (part === 'all') TIERS.forEach((t) => tiers.add(t));
    else if (isTier(part)) tiers.add(part);
    else throw new TierSpecError(`unknown tier '${part}' in '${spec}' (expected core, extended, skip, all or a comma list)`);
  }
  return tiers;
}

export interface Selection {
  readonly tiers: ReadonlySet<Tier>;
  /** Tested against the test path (unanchored, like `lit --filter`). */
  readonly filter?: RegExp | undefined;
}

/** Tests in the chosen tiers whose path matches the filter, in SCORED.tsv order. */
export function selectTests(tests: readonly ScoredTest[], selection: Selection): ScoredTest[] {
  return tests.filter((t) => selection.tiers.has(t.tier) && (selection.filter === undefined || selection.filter.test(t.path)));
}
