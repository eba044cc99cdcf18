import { describe, expect, it } from 'vitest';
import { AnalysisManager, printIR, timePasses, tracePassManager, verifyAnalysisInvalidation, verifyEach } from './index.js';
import { moduleKind, toyModule, toyRegistry, type ToyModule } from '../test/toy.js';

const registry = toyRegistry();
const build = (text: string) => registry.build<ToyModule>(text, { unit: moduleKind });

describe('verifyAnalysisInvalidation', () => {
  it('catches a pass that changed the unit but returned PreservedAnalyses.all()', () => {
    const module = toyModule('m', { f: ['a'], g: [] });
    const result = build('noop,function(noop-function,lying-pass),rename').run(module, { instrumentations: [verifyAnalysisInvalidation()] });
    expect(result.stopped).toBe(true);
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unreported-change',
        message: "pass 'lying-pass' changed function 'f' but reported that it preserved all analyses",
        pass: 'lying-pass',
        notes: [],
        fatal: true,
      },
    ]);
    // Stopped at the first function: g was never visited and rename never ran.
    expect(module.functions.map((f) => [f.name, f.lines])).toEqual([
      ['f', ['a', 'sneaky']],
      ['g', []],
    ]);
  });

  it('accepts honest passes: unchanged units with all(), changed units with less', () => {
    const result = build('noop,rename,function(noop-function,append-line),mark').run(toyModule('m', { f: ['a'] }), {
      instrumentations: [verifyAnalysisInvalidation()],
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.stopped).toBe(false);
  });

  it('does nothing without the instrumentation: the lie goes unnoticed', () => {
    const result = build('function(lying-pass)').run(toyModule('m', { f: [] }));
    expect(result.diagnostics).toEqual([]);
  });
});

describe('verifyEach', () => {
  it('fails the run with verifier-failed after the pass that broke the unit', () => {
    const module = toyModule('m', { f: [] });
    const result = build('append-line,break-function,rename').run(module, { instrumentations: [verifyEach()] });
    expect(result.stopped).toBe(true);
    expect(result.diagnostics.map((d) => [d.code, d.pass, d.message])).toEqual([
      ['verifier-failed', 'break-function', "function 'f' is broken after pass 'break-function': function 'f' contains 'broken'"],
    ]);
    expect(module.functions[0]!.name).toBe('f');
  });

  it('verifies the module after module passes', () => {
    const duplicate = registry.extend({}).build<ToyModule>('rename<prefix=>', { unit: moduleKind });
    const module = toyModule('m', { f: [] });
    module.functions.push({ name: 'f', lines: [] });
    const result = duplicate.run(module, { instrumentations: [verifyEach()] });
    expect(result.diagnostics[0]?.message).toMatch(/module 'm' is broken after pass 'rename': function 'f' is defined twice/);
  });
});

describe('timePasses', () => {
  it('adds up time and runs per pass name, skipping adaptors, slowest first', () => {
    let clock = 0;
    const timer = timePasses({ now: () => (clock += 5) });
    build('rename,function(append-line,noop-function),noop').run(toyModule('m', { f: [], g: [] }), { instrumentations: [timer] });
    expect(timer.entries()).toEqual([
      { pass: 'append-line', runs: 2, milliseconds: 10 },
      { pass: 'noop', runs: 1, milliseconds: 5 },
      { pass: 'noop-function', runs: 2, milliseconds: 10 },
      { pass: 'rename', runs: 1, milliseconds: 5 },
    ].sort((a, b) => b.milliseconds - a.milliseconds || a.pass.localeCompare(b.pass)));
  });

  it('renders a -time-passes report with percentages and a total', () => {
    let clock = 0;
    const timer = timePasses({ now: () => (clock += 250) });
    build('rename,noop').run(toyModule('m', {}), { instrumentations: [timer] });
    expect(timer.report()).toBe(
      [
        '===-------------------------------------------------------------------------===',
        '                         Pass execution timing report',
        '===-------------------------------------------------------------------------===',
        '  Total Execution Time: 0.5000 seconds (0.5000 wall clock)',
        '',
        '   ---Wall Time---  ---Runs---  --- Name ---',
        '   0.2500 ( 50.0%)           1  noop',
        '   0.2500 ( 50.0%)           1  rename',
        '   0.5000 (100.0%)              Total',
        '',
      ].join('\n'),
    );
    timer.reset();
    expect(timer.entries()).toEqual([]);
  });

  it('counts the pass even when an earlier after-hook stopped the run', () => {
    let clock = 0;
    const timer = timePasses({ now: () => (clock += 1) });
    const result = build('function(lying-pass),noop').run(toyModule('m', { f: [] }), { instrumentations: [verifyAnalysisInvalidation(), timer] });
    expect(result.stopped).toBe(true);
    expect(timer.entries()).toEqual([{ pass: 'lying-pass', runs: 1, milliseconds: 1 }]);
  });

  it('still counts a pass that stopped the run', () => {
    let clock = 0;
    const timer = timePasses({ now: () => (clock += 1) });
    build('lint-bad,noop').run(toyModule('m', { f: ['fatal'] }), { instrumentations: [timer] });
    expect(timer.entries().map((e) => e.pass)).toEqual(['lint-bad']);
  });
});

describe('printIR', () => {
  it('dumps the unit after every pass with its kind printer (print-after-all)', () => {
    const out: string[] = [];
    build('rename<prefix=p_>,function(append-line<text=ret>)').run(toyModule('m', { f: [] }), { instrumentations: [printIR({ write: (t) => out.push(t) })] });
    expect(out).toEqual([
      "; *** IR Dump After rename<prefix=p_;no-upper> on m ***\n; ModuleID = 'm'\n\ndefine @p_f {\n}\n",
      '; *** IR Dump After append-line<text=ret> on p_f ***\ndefine @p_f {\n  ret\n}\n',
    ]);
  });

  it('dumps only before and after the named passes when given names', () => {
    const out: string[] = [];
    build('noop,rename').run(toyModule('m', {}), { instrumentations: [printIR({ write: (t) => out.push(t), before: ['rename'], after: ['noop'] })] });
    expect(out.map((t) => t.split('\n')[0])).toEqual(['; *** IR Dump After noop on m ***', '; *** IR Dump Before rename<prefix=x_;no-upper> on m ***']);
  });
});

describe('tracePassManager', () => {
  it('shows that a preserved analysis is not recomputed (like the ADCE -debug-pass-manager test)', () => {
    const out: string[] = [];
    const am = new AnalysisManager();
    build('require<module-size>,rename,require<module-size>,mark,require<module-size>').run(toyModule('m', { f: ['a'] }), {
      analyses: am,
      instrumentations: [tracePassManager({ write: (t) => out.push(t) })],
    });
    expect(out.join('')).toBe(
      [
        'Running pass: require<module-size> on m',
        'Running analysis: line-count on f',
        'Running analysis: module-size on m',
        'Running pass: rename<prefix=x_;no-upper> on m',
        // rename keeps line-count but not module-size.
        'Invalidating analysis: module-size on m',
        'Running pass: require<module-size> on m',
        'Running analysis: module-size on m',
        'Running pass: mark<targets=> on m',
        'Invalidating analysis: module-size on m',
        'Invalidating analysis: line-count on x_f',
        'Running pass: require<module-size> on m',
        'Running analysis: line-count on x_f',
        // mark added a function.
        'Running analysis: line-count on marked',
        'Running analysis: module-size on m',
        '',
      ].join('\n'),
    );
  });

  it('stops listening to the analysis manager when the run ends', () => {
    const out: string[] = [];
    const am = new AnalysisManager();
    build('noop').run(toyModule('m', {}), { analyses: am, instrumentations: [tracePassManager({ write: (t) => out.push(t) })] });
    out.length = 0;
    am.getResult((registry.analyses.get('module-size') as never), toyModule('other', {}));
    expect(out).toEqual([]);
  });
});
