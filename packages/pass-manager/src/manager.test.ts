import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AnalysisManager,
  createAdaptor,
  createPipeline,
  definePass,
  PassCrashError,
  PreservedAnalyses,
  subunitsOf,
  type Pass,
  type UnitKind,
} from './index.js';
import {
  analysisRuns,
  appendLine,
  functionKind,
  imageSetKind,
  lineCount,
  lintBad,
  moduleKind,
  moduleSize,
  noop,
  rename,
  toyModule,
  toyRegistry,
  type ToyFunction,
  type ToyModule,
} from '../test/toy.js';

const registry = toyRegistry();

beforeEach(() => analysisRuns.clear());

describe('Pipeline.run', () => {
  it('runs passes in order and nested pipelines over every sub-unit', () => {
    const module = toyModule('m', { f: [], g: ['x'] });
    registry.build<ToyModule>('append-line<text=1>,rename<prefix=r_>,function(append-line<text=2>)', { unit: moduleKind }).run(module);
    expect(module.functions).toEqual([
      { name: 'r_f', lines: ['1', '2'] },
      { name: 'r_g', lines: ['x', '1', '2'] },
    ]);
  });

  it('runs module(...) over every module of an image set', () => {
    const set = { modules: [toyModule('a', { f: [] }), toyModule('b', { g: [] })] };
    registry.build('count-modules,module(rename<prefix=z_>)', { unit: imageSetKind }).run(set);
    expect(set.modules.map((m) => m.functions.map((f) => f.name))).toEqual([['z_f'], ['z_g'], []]);
  });

  it('returns the intersection of what the passes preserved', () => {
    const run = (text: string) => registry.build<ToyModule>(text, { unit: moduleKind }).run(toyModule('m', { f: [] })).preserved;
    expect(run('noop,noop').areAllPreserved()).toBe(true);
    expect(run('noop,rename').isPreserved('line-count')).toBe(true);
    expect(run('noop,rename').isPreserved('module-size')).toBe(false);
    expect(run('rename,mark').isPreserved('line-count')).toBe(false);
  });

  it('reports that an adaptor accounted for the sub-units: its set of the inner kind is preserved', () => {
    const result = registry.build<ToyModule>('function(append-line)', { unit: moduleKind }).run(toyModule('m', { f: [] }));
    expect(result.preserved.isSetPreserved('all-analyses-on:function')).toBe(true);
    expect(result.preserved.isPreserved('module-size', ['all-analyses-on:module'])).toBe(false);
    expect(result.preserved.isPreserved('function-names')).toBe(true);
  });
});

describe('analysis caching through a pipeline', () => {
  const functionPass = (name: string, preserved: () => PreservedAnalyses): Pass<ToyFunction> => ({
    name,
    unit: functionKind,
    run: (f, ctx) => {
      ctx.analyses.getResult(lineCount, f);
      return preserved();
    },
  });

  it('computes an analysis once while passes preserve it and again after one does not', () => {
    const keep = functionPass('keep', () => PreservedAnalyses.all());
    const drop = functionPass('drop', () => PreservedAnalyses.none());
    const pipeline = createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [keep, keep, drop, keep])]);
    pipeline.run(toyModule('m', { f: [], g: [] }));
    // Per function: computed by the first `keep`, reused twice, dropped after `drop`, recomputed.
    expect(analysisRuns.get('line-count')).toBe(4);
  });

  it('drops function results when a module pass preserves nothing, and keeps them when it preserves their set', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    const f = module.functions[0]!;
    am.getResult(moduleSize, module);
    expect(am.isCached(lineCount, f)).toBe(true);

    registry.build<ToyModule>('noop', { unit: moduleKind }).run(module, { analyses: am });
    expect(am.isCached(lineCount, f)).toBe(true);

    const keepsFunctions: Pass<ToyModule> = {
      name: 'keeps-functions',
      unit: moduleKind,
      run: () => PreservedAnalyses.none().preserveSet('all-analyses-on:function'),
    };
    createPipeline(moduleKind, [keepsFunctions]).run(module, { analyses: am });
    expect(am.isCached(lineCount, f)).toBe(true);
    expect(am.isCached(moduleSize, module)).toBe(false);

    registry.build<ToyModule>('mark', { unit: moduleKind }).run(module, { analyses: am });
    expect(am.isCached(lineCount, f)).toBe(false);
  });

  it('drops a module analysis when a function pass inside an adaptor does not preserve it', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    expect(am.getResult(moduleSize, module)).toBe(1);
    registry.build<ToyModule>('function(append-line)', { unit: moduleKind }).run(module, { analyses: am });
    expect(am.isCached(moduleSize, module)).toBe(false);
    expect(am.getResult(moduleSize, module)).toBe(2);
  });

  it('records function units a module pass reads results on, so its invalidation reaches them', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    const reader: Pass<ToyModule> = {
      name: 'reader',
      unit: moduleKind,
      run: (m, ctx) => {
        for (const f of m.functions) ctx.analyses.getResult(lineCount, f);
        return PreservedAnalyses.all();
      },
    };
    const changer: Pass<ToyModule> = {
      name: 'changer',
      unit: moduleKind,
      run: (m) => {
        m.functions[0]!.lines.push('b');
        return PreservedAnalyses.none();
      },
    };
    createPipeline(moduleKind, [reader, changer]).run(module, { analyses: am });
    expect(am.isCached(lineCount, module.functions[0]!)).toBe(false);
  });

  it('forbids computing an enclosing unit’s analysis from inside an adaptor, but allows reading the cache', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    const seen: (number | undefined)[] = [];
    const readsCache: Pass<ToyFunction> = {
      name: 'reads-cache',
      unit: functionKind,
      run: (_f, ctx) => {
        seen.push(ctx.analyses.getCachedResult(moduleSize, ctx.parent!.unit as ToyModule));
        return PreservedAnalyses.all();
      },
    };
    const computes: Pass<ToyFunction> = {
      name: 'computes',
      unit: functionKind,
      run: (_f, ctx) => {
        ctx.analyses.getResult(moduleSize, ctx.parent!.unit as ToyModule);
        return PreservedAnalyses.all();
      },
    };
    createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [readsCache])]).run(module, { analyses: am });
    am.getResult(moduleSize, module);
    createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [readsCache])]).run(module, { analyses: am });
    expect(seen).toEqual([undefined, 1]);
    expect(() => createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [computes])]).run(module)).toThrow(
      /may only read cached results of enclosing units/,
    );
  });

  it('runs require<...> and invalidate<...> through the analysis manager', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    registry.build<ToyModule>('require<module-size>', { unit: moduleKind }).run(module, { analyses: am });
    expect(am.isCached(moduleSize, module)).toBe(true);
    registry.build<ToyModule>('invalidate<line-count>', { unit: moduleKind }).run(module, { analyses: am });
    // module-size was computed from line-count, so it goes too.
    expect(am.isCached(lineCount, module.functions[0]!)).toBe(false);
    expect(am.isCached(moduleSize, module)).toBe(false);
  });
});

describe('diagnostics through the manager', () => {
  it('collects diagnostics in emission order with the pass name, default severity and the run file', () => {
    const module = toyModule('m', { f: ['bad', 'ok', 'bad too'], g: ['bad'] });
    const result = registry.build<ToyModule>('lint-bad', { unit: moduleKind }).run(module, { file: 'input.ll' });
    expect(result.diagnostics.map((d) => [d.pass, d.code, d.severity, d.message])).toEqual([
      ['lint-bad', 'bad-line', 'warning', "line 1 of 'f' is bad"],
      ['lint-bad', 'bad-line', 'warning', "line 3 of 'f' is bad"],
      ['lint-bad', 'bad-line', 'warning', "line 1 of 'g' is bad"],
    ]);
    expect(result.warningCount).toBe(3);
    expect(result.diagnostics[0]!.location?.file).toBe('toy.src');
  });

  it('stamps the run file on diagnostics without one', () => {
    const reporter: Pass<ToyModule> = {
      name: 'reporter',
      unit: moduleKind,
      run: (_m, ctx) => {
        ctx.report({ code: 'plain', message: 'no location' });
        ctx.report({ code: 'plain', message: 'a line', location: { line: 3 } });
        return PreservedAnalyses.all();
      },
    };
    const result = createPipeline(moduleKind, [reporter]).run(toyModule('m', {}), { file: 'in.ll' });
    expect(result.diagnostics.map((d) => d.location)).toEqual([{ file: 'in.ll' }, { line: 3, file: 'in.ll' }]);
  });

  it('applies the policy: -Werror counts errors, an override turns a code off', () => {
    const module = toyModule('m', { f: ['bad'] });
    const pipeline = registry.build<ToyModule>('lint-bad', { unit: moduleKind });
    const promoted = pipeline.run(module, { policy: { warningsAsErrors: true } });
    expect(promoted.diagnostics[0]).toMatchObject({ severity: 'error', reportedSeverity: 'warning' });
    expect(promoted.errorCount).toBe(1);
    expect(pipeline.run(module, { policy: { overrides: { 'bad-line': 'off' } } }).diagnostics).toEqual([]);
  });

  it('stops the pipeline at a fatal diagnostic, including one the user made fatal', () => {
    const module = toyModule('m', { f: ['fatal'], g: ['bad'] });
    const result = registry.build<ToyModule>('lint-bad,rename', { unit: moduleKind }).run(module);
    expect(result.stopped).toBe(true);
    expect(result.diagnostics.map((d) => [d.code, d.fatal])).toEqual([['fatal-line', true]]);
    expect(module.functions.map((f) => f.name)).toEqual(['f', 'g']);
    expect(result.preserved.areAllPreserved()).toBe(false);

    const other = toyModule('m', { f: ['bad'], g: ['bad'] });
    const made = registry.build<ToyModule>('lint-bad,rename', { unit: moduleKind }).run(other, { policy: { overrides: { 'bad-line': 'fatal' } } });
    expect(made.stopped).toBe(true);
    expect(made.diagnostics).toHaveLength(1);
    expect(other.functions[0]!.name).toBe('f');
  });

  it('stops even when a pass swallows the stop signal', () => {
    const swallow: Pass<ToyModule> = {
      name: 'swallow',
      unit: moduleKind,
      run: (_m, ctx) => {
        try {
          ctx.fail({ code: 'fatal-thing', message: 'fatal' });
        } catch {
          // a careless pass
        }
        return PreservedAnalyses.all();
      },
    };
    const module = toyModule('m', {});
    const result = createPipeline(moduleKind, [swallow, rename.instantiate()]).run(module);
    expect(result.stopped).toBe(true);
    expect(result.errorCount).toBe(1);
  });

  it('rejects codes a pass did not declare, and codes that are not kebab-case', () => {
    const sloppy = definePass({
      name: 'sloppy',
      unit: moduleKind,
      summary: '',
      preserves: 'all',
      diagnostics: { 'known-code': { severity: 'warning', summary: '' } },
      create: () => (_m, ctx) => {
        ctx.report({ code: 'unknown-code', message: 'x' });
        return PreservedAnalyses.all();
      },
    });
    expect(() => createPipeline(moduleKind, [sloppy.instantiate()]).run(toyModule('m', {}))).toThrow(/does not list/);
    const shouting: Pass<ToyModule> = {
      name: 'shouting',
      unit: moduleKind,
      run: (_m, ctx) => {
        ctx.report({ code: 'Bad_Code', message: 'x' });
        return PreservedAnalyses.all();
      },
    };
    expect(() => createPipeline(moduleKind, [shouting]).run(toyModule('m', {}))).toThrow(/not kebab-case/);
  });
});

describe('pass failures', () => {
  it('wraps an exception from a pass in a PassCrashError naming the pass and the unit', () => {
    const crashing: Pass<ToyFunction> = {
      name: 'crashing',
      unit: functionKind,
      run: () => {
        throw new RangeError('index out of range');
      },
    };
    const pipeline = createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [crashing])]);
    let caught: unknown;
    try {
      pipeline.run(toyModule('m', { kernel: [] }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PassCrashError);
    expect((caught as PassCrashError).message).toBe("pass 'crashing' crashed on 'kernel': index out of range");
    expect((caught as PassCrashError).cause).toBeInstanceOf(RangeError);
  });

  it('treats a run that returns something other than PreservedAnalyses as a crash', () => {
    const forgetful = { name: 'forgetful', unit: moduleKind, run: () => undefined } as unknown as Pass<ToyModule>;
    expect(() => createPipeline(moduleKind, [forgetful]).run(toyModule('m', {}))).toThrow(/must return PreservedAnalyses/);
  });

  it('drops cached results of a unit whose pass crashed', () => {
    const am = new AnalysisManager();
    const module = toyModule('m', { f: ['a'] });
    am.getResult(moduleSize, module);
    const crashing: Pass<ToyModule> = {
      name: 'crashing',
      unit: moduleKind,
      run: () => {
        throw new Error('boom');
      },
    };
    expect(() => createPipeline(moduleKind, [crashing]).run(module, { analyses: am })).toThrow(PassCrashError);
    expect(am.isCached(moduleSize, module)).toBe(false);
  });
});

describe('programmatic pipelines', () => {
  it('checks that passes run on the pipeline’s kind and adaptors on a real sub-unit kind', () => {
    expect(() => createPipeline(moduleKind, [appendLine.instantiate() as unknown as Pass<ToyModule>])).toThrow(
      /runs on function units; this pipeline runs on module units/,
    );
    expect(() => createAdaptor(functionKind, moduleKind, [noop.instantiate()])).toThrow(/function units have no module sub-units/);
    expect(() => createAdaptor(moduleKind, functionKind, [noop.instantiate() as unknown as Pass<ToyFunction>])).toThrow(/not function units/);
  });

  it('prints instantiated passes with all their options', () => {
    const pipeline = createPipeline(moduleKind, [
      rename.instantiate({ upper: true }),
      createAdaptor(moduleKind, functionKind, [appendLine.instantiate(), lintBad.instantiate()]),
    ]);
    expect(pipeline.text).toBe('rename<prefix=x_;upper>,function(append-line<text=nop>,lint-bad)');
  });

  it('refuses to run an adaptor outside a pipeline', () => {
    const adaptor = createAdaptor(moduleKind, functionKind, [appendLine.instantiate()]);
    expect(() => adaptor.run(toyModule('m', {}), {} as never)).toThrow(/can only run inside a pipeline/);
  });
});

describe('Pipeline.runAsync', () => {
  const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));
  const asyncAppend = (text: string): Pass<ToyFunction> => ({
    name: `async-append-${text}`,
    unit: functionKind,
    run: async (f) => {
      await later(undefined);
      f.lines.push(text);
      return PreservedAnalyses.none();
    },
  });
  const syncAppend = (text: string): Pass<ToyFunction> => ({
    name: `append-${text}`,
    unit: functionKind,
    run: (f) => {
      f.lines.push(text);
      return PreservedAnalyses.none();
    },
  });

  it('runs asynchronous passes one at a time, in order, over every sub-unit in turn', async () => {
    const module = toyModule('m', { f: [], g: [] });
    const pipeline = createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [syncAppend('1'), asyncAppend('2'), syncAppend('3')])]);
    const order: string[] = [];
    const result = await pipeline.runAsync(module, {
      instrumentations: [{ name: 'order', beforePass: (e) => void (e.adaptor || order.push(`${e.pass}:${(e.unit as ToyFunction).name}`)) }],
    });
    expect(result.stopped).toBe(false);
    expect(module.functions.map((f) => f.lines)).toEqual([['1', '2', '3'], ['1', '2', '3']]);
    // f finishes all three passes before g starts.
    expect(order).toEqual(['append-1:f', 'async-append-2:f', 'append-3:f', 'append-1:g', 'async-append-2:g', 'append-3:g']);
    expect(result.preserved.isSetPreserved('all-analyses-on:function')).toBe(true);
  });

  it('gives the same result as run() for synchronous pipelines', async () => {
    const text = 'append-line<text=1>,rename<prefix=r_>,function(append-line<text=2>)';
    const a = toyModule('m', { f: [], g: ['x'] });
    const b = toyModule('m', { f: [], g: ['x'] });
    registry.build<ToyModule>(text, { unit: moduleKind }).run(a);
    await registry.build<ToyModule>(text, { unit: moduleKind }).runAsync(b);
    expect(b).toEqual(a);
  });

  it('refuses an asynchronous pass in run(), naming it', () => {
    const pipeline = createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [asyncAppend('2')])]);
    expect(() => pipeline.run(toyModule('m', { f: [] }))).toThrow(/pass 'async-append-2' is asynchronous; run the pipeline with runAsync\(\)/);
  });

  it('turns a rejected pass into a PassCrashError and drops what was cached on the unit', async () => {
    const failing: Pass<ToyFunction> = {
      name: 'fails-later',
      unit: functionKind,
      run: async () => {
        await later(undefined);
        throw new Error('tool failed');
      },
    };
    const module = toyModule('m', { f: ['a'] });
    const analyses = new AnalysisManager();
    analyses.getResult(lineCount, module.functions[0]!);
    const failed: string[] = [];
    const pipeline = createPipeline(moduleKind, [createAdaptor(moduleKind, functionKind, [failing])]);
    const error = await pipeline.runAsync(module, { analyses, instrumentations: [{ name: 'f', afterPassFailed: (e) => void failed.push(e.pass) }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PassCrashError);
    expect((error as PassCrashError).message).toMatch(/fails-later/);
    expect(analyses.isCached(lineCount, module.functions[0]!)).toBe(false);
    expect(failed).toEqual(['fails-later', 'function']);
  });

  it('stops at a fatal diagnostic reported by an asynchronous pass', async () => {
    const fatal: Pass<ToyModule> = {
      name: 'fatal-later',
      unit: moduleKind,
      run: async (_m, ctx): Promise<PreservedAnalyses> => {
        await later(undefined);
        return ctx.fail({ code: 'tool-failed', message: 'no tool' });
      },
    };
    const after = vi.fn(() => PreservedAnalyses.all());
    const result = await createPipeline(moduleKind, [fatal, { name: 'after', unit: moduleKind, run: after }]).runAsync(toyModule('m', {}));
    expect(result.stopped).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['tool-failed']);
    expect(after).not.toHaveBeenCalled();
  });
});

describe('RunOptions.onDiagnostic', () => {
  it('sees each diagnostic as it is recorded, after the policy, in order', () => {
    const seen: string[] = [];
    const result = registry.build<ToyModule>('lint-bad,append-line,lint-bad', { unit: moduleKind }).run(toyModule('m', { f: ['bad'] }), {
      policy: { overrides: {}, warningsAsErrors: true },
      onDiagnostic: (d) => void seen.push(`${d.code}:${d.severity}`),
    });
    expect(seen).toEqual(result.diagnostics.map((d) => `${d.code}:${d.severity}`));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.endsWith(':error'))).toBe(true);
  });
});

describe('Subunits.finish', () => {
  const order: string[] = [];
  const box = { items: ['a', 'b'].map((name) => ({ name })) };
  type Box = typeof box;
  type Item = Box['items'][number];
  const itemKind: UnitKind<Item> = { name: 'item', fingerprint: (i) => i.name, print: (i) => i.name };
  const boxKind = (finish: (b: Box) => void | Promise<void>): UnitKind<Box> => ({
    name: 'box',
    fingerprint: () => '',
    print: () => '',
    subunits: [subunitsOf(itemKind, (b: Box) => b.items, finish)],
  });
  const visit: Pass<Item> = { name: 'visit', unit: itemKind, run: (i) => (order.push(i.name), PreservedAnalyses.all()) };

  it('runs after the nested pipeline went over every sub-unit, synchronously or awaited', async () => {
    order.length = 0;
    const sync = boxKind(() => void order.push('finish'));
    createPipeline(sync, [createAdaptor(sync, itemKind, [visit])]).run(box);
    expect(order).toEqual(['a', 'b', 'finish']);
    order.length = 0;
    const later = boxKind(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      order.push('finished later');
    });
    const result = await createPipeline(later, [createAdaptor(later, itemKind, [visit])]).runAsync(box);
    expect(order).toEqual(['a', 'b', 'finished later']);
    expect(result.stopped).toBe(false);
  });
});
