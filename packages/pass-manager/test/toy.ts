/**
 * Toy IR for the pass-manager tests: an image set holds modules, a module holds functions, a
 * function is a list of lines. Enough to exercise kinds, nesting, analyses and diagnostics
 * without the IR package.
 */
import {
  createRegistry,
  defineAnalysis,
  definePass,
  flag,
  option,
  PreservedAnalyses,
  subunitsOf,
  type UnitKind,
} from '../src/index.js';

export interface ToyFunction {
  name: string;
  lines: string[];
}

export interface ToyModule {
  name: string;
  functions: ToyFunction[];
}

export interface ToyImageSet {
  modules: ToyModule[];
}

export const functionKind: UnitKind<ToyFunction> = {
  name: 'function',
  fingerprint: (f) => `${f.name}\n${f.lines.join('\n')}`,
  print: (f) => `define @${f.name} {\n${f.lines.map((l) => `  ${l}\n`).join('')}}\n`,
  verify: (f) => {
    if (f.lines.includes('broken')) throw new Error(`function '${f.name}' contains 'broken'`);
  },
  label: (f) => f.name,
};

export const moduleKind: UnitKind<ToyModule> = {
  name: 'module',
  fingerprint: (m) => JSON.stringify(m),
  print: (m) => `; ModuleID = '${m.name}'\n` + m.functions.map((f) => `\n${functionKind.print(f)}`).join(''),
  verify: (m) => {
    const names = new Set<string>();
    for (const f of m.functions) {
      if (names.has(f.name)) throw new Error(`function '${f.name}' is defined twice`);
      names.add(f.name);
    }
  },
  label: (m) => m.name,
  subunits: [subunitsOf(functionKind, (m: ToyModule) => m.functions)],
};

export const imageSetKind: UnitKind<ToyImageSet> = {
  name: 'images',
  fingerprint: (s) => JSON.stringify(s),
  print: (s) => s.modules.map((m) => moduleKind.print(m)).join('\n'),
  label: (s) => `${s.modules.length} images`,
  subunits: [subunitsOf(moduleKind, (s: ToyImageSet) => s.modules)],
};

export function toyModule(name: string, functions: Record<string, string[]>): ToyModule {
  return { name, functions: Object.entries(functions).map(([fname, lines]) => ({ name: fname, lines: [...lines] })) };
}

/** Counts how often each analysis ran, so tests can see recomputation. */
export const analysisRuns = new Map<string, number>();
const counted = (name: string): void => {
  analysisRuns.set(name, (analysisRuns.get(name) ?? 0) + 1);
};

export const lineCount = defineAnalysis({
  name: 'line-count',
  unit: functionKind,
  summary: 'Number of lines in a function.',
  run: (f) => {
    counted('line-count');
    return f.lines.length;
  },
});

/** A module analysis built from a function analysis: dropped whenever any line count is. */
export const moduleSize = defineAnalysis({
  name: 'module-size',
  unit: moduleKind,
  summary: 'Total lines, from line-count of every function.',
  run: (m, analyses) => {
    counted('module-size');
    return m.functions.reduce((sum, f) => sum + analyses.getResult(lineCount, f), 0);
  },
});

export const functionNames = defineAnalysis({
  name: 'function-names',
  unit: moduleKind,
  sets: ['symbols'],
  run: (m) => {
    counted('function-names');
    return m.functions.map((f) => f.name);
  },
});

export const appendLine = definePass({
  name: 'append-line',
  unit: functionKind,
  summary: 'Appends a line to every function.',
  options: { text: option.string({ doc: 'The line to append', default: 'nop' }) },
  preserves: ['function-names'],
  create: (options) => (f) => {
    f.lines.push(options.text);
    return PreservedAnalyses.only('function-names');
  },
});

export const noop = definePass({
  name: 'noop',
  unit: moduleKind,
  summary: 'Does nothing.',
  preserves: 'all',
  create: () => () => PreservedAnalyses.all(),
});

export const noopFunction = definePass({
  name: 'noop-function',
  unit: functionKind,
  summary: 'Does nothing to a function.',
  preserves: 'all',
  create: () => () => PreservedAnalyses.all(),
});

export const rename = definePass({
  name: 'rename',
  unit: moduleKind,
  summary: 'Prefixes function names.',
  options: {
    prefix: option.string({ doc: 'Prefix to add', default: 'x_' }),
    upper: option.boolean({ doc: 'Upper-case the names' }),
  },
  preserves: ['line-count'],
  create: (options) => (m) => {
    for (const f of m.functions) f.name = options.prefix + (options.upper ? f.name.toUpperCase() : f.name);
    return PreservedAnalyses.none().preserve(lineCount);
  },
});

/** Every option type, for the option and property tests. */
export const everyOption = definePass({
  name: 'every-option',
  unit: moduleKind,
  summary: 'Takes one option of each type.',
  options: {
    verbose: option.boolean({ doc: 'Say more' }),
    keepDebug: option.boolean({ doc: 'Keep debug info', default: true }),
    maxSize: option.integer({ doc: 'Largest size', default: 4, min: 0, max: 1000 }),
    offset: option.integer({ doc: 'Signed offset', default: -1 }),
    prefix: option.string({ doc: 'A prefix', default: '' }),
    targets: option.stringList({ doc: 'Targets', valueName: 'target' }),
    mode: option.enum(['per-kernel', 'per-module', 'auto'], { doc: 'Split mode', default: 'auto', bare: true }),
    level: option.enum(['low', 'high'], { doc: 'Level' }),
  },
  preserves: 'all',
  create: () => () => PreservedAnalyses.all(),
});

/** Reports a warning per line containing 'bad', with a call-chain-like note. */
export const lintBad = definePass({
  name: 'lint-bad',
  unit: functionKind,
  summary: "Warns about 'bad' lines.",
  preserves: 'all',
  diagnostics: {
    'bad-line': { severity: 'warning', summary: "A line says 'bad'." },
    'fatal-line': { severity: 'error', summary: "A line says 'fatal'." },
  },
  create: () => (f, ctx) => {
    f.lines.forEach((line, i) => {
      if (line.includes('fatal')) ctx.fail({ code: 'fatal-line', message: `line ${i + 1} of '${f.name}' is fatal` });
      if (!line.includes('bad')) return;
      ctx.report({
        code: 'bad-line',
        message: `line ${i + 1} of '${f.name}' is bad`,
        location: { file: 'toy.src', line: i + 1, column: 3, function: f.name },
        notes: [{ message: `called from '${f.name}_caller'`, location: { file: 'toy.src', line: 100, column: 1 } }],
      });
    });
    return PreservedAnalyses.all();
  },
});

/** Declares cl::opt-style flags like the aspect pass does. */
export const mark = definePass({
  name: 'mark',
  unit: moduleKind,
  summary: 'Records its flags as a function.',
  options: { targets: option.stringList({ doc: 'Targets from the pipeline' }) },
  flags: {
    exclude: flag.stringList('toy-mark-exclude-aspects', { doc: 'Aspects to exclude', valueName: 'aspect' }),
    fixedTargets: flag.stringList('toy-mark-fixed-targets', { doc: 'Targets to append' }),
    depth: flag.integer('toy-mark-depth', { doc: 'Depth', default: 2, min: 0, hidden: true }),
    strict: flag.boolean('toy-mark-strict', { doc: 'Be strict' }),
  },
  preserves: 'none',
  create: (options, env) => (m) => {
    const targets = env.flagsGiven.has('fixedTargets') ? [...options.targets, ...env.flags.fixedTargets] : options.targets;
    m.functions.push({
      name: 'marked',
      lines: [`targets=${targets.join(',')}`, `exclude=${env.flags.exclude.join(',')}`, `depth=${env.flags.depth}`, `strict=${env.flags.strict}`],
    });
    return PreservedAnalyses.none();
  },
});

/** Claims to preserve everything but changes the function: what the invalidation check must catch. */
export const lyingPass = definePass({
  name: 'lying-pass',
  unit: functionKind,
  summary: 'Changes a function and says it did not.',
  preserves: 'all',
  create: () => (f) => {
    f.lines.push('sneaky');
    return PreservedAnalyses.all();
  },
});

/** Breaks the function so the verifier fails. */
export const breakFunction = definePass({
  name: 'break-function',
  unit: functionKind,
  summary: 'Adds a line the verifier rejects.',
  preserves: 'none',
  create: () => (f) => {
    f.lines.push('broken');
    return PreservedAnalyses.none();
  },
});

export const countModules = definePass({
  name: 'count-modules',
  unit: imageSetKind,
  summary: 'Adds a module named after the count.',
  preserves: 'none',
  create: () => (s) => {
    s.modules.push({ name: `m${s.modules.length}`, functions: [] });
    return PreservedAnalyses.none();
  },
});

export const toyPasses = [appendLine, noop, noopFunction, rename, everyOption, lintBad, mark, lyingPass, breakFunction, countModules];
export const toyAnalyses = [lineCount, moduleSize, functionNames];

export function toyRegistry() {
  return createRegistry({
    unitKinds: [moduleKind, imageSetKind],
    passes: toyPasses,
    analyses: toyAnalyses,
    presets: {
      'toy-default': 'rename<prefix=p_>,append-line<text=end>',
      'toy-lint': 'lint-bad',
    },
  });
}
