import { describe, expect, it } from 'vitest';
import { createRegistry, definePass, flag, FlagError, PipelineError, PreservedAnalyses } from './index.js';
import { functionKind, imageSetKind, moduleKind, toyModule, toyRegistry, type ToyModule } from '../test/toy.js';

const registry = toyRegistry();

function parseError(text: string, unit: typeof moduleKind | typeof imageSetKind = moduleKind): PipelineError {
  try {
    registry.parse(text, { unit });
  } catch (error) {
    if (error instanceof PipelineError) return error;
    throw error;
  }
  throw new Error(`'${text}' parsed without error`);
}

describe('PassRegistry.parse', () => {
  it('fills in every default option of a pass', () => {
    expect(registry.parse('rename')).toEqual([{ name: 'rename', options: { prefix: 'x_', upper: false } }]);
  });

  it('reads booleans, no- negations, integers, strings, lists and bare enum values', () => {
    const [node] = registry.parse('every-option<verbose;no-keep-debug;max-size=7;offset=-3;prefix=a=b;targets=x,y;per-kernel;level=high>');
    expect(node!.options).toEqual({
      verbose: true,
      keepDebug: false,
      maxSize: 7,
      offset: -3,
      prefix: 'a=b',
      targets: ['x', 'y'],
      mode: 'per-kernel',
      level: 'high',
    });
  });

  it('makes adaptors explicit: function passes in a module pipeline share one implicit function(...)', () => {
    expect(registry.parse('append-line,noop-function,noop,append-line')).toEqual([
      {
        name: 'function',
        options: {},
        inner: [
          { name: 'append-line', options: { text: 'nop' } },
          { name: 'noop-function', options: {} },
        ],
      },
      { name: 'noop', options: {} },
      { name: 'function', options: {}, inner: [{ name: 'append-line', options: { text: 'nop' } }] },
    ]);
  });

  it('keeps explicit adaptors apart and wraps through two levels from an image set', () => {
    expect(registry.print(registry.parse('function(noop-function),function(noop-function)'))).toBe('function(noop-function),function(noop-function)');
    expect(registry.print(registry.parse('noop-function,append-line', { unit: imageSetKind }), { unit: imageSetKind })).toBe(
      'module(function(noop-function,append-line<text=nop>))',
    );
  });

  it('treats the current kind as a grouping: module(a,b) in a module pipeline is a,b', () => {
    expect(registry.parse('module(noop,module(rename))')).toEqual(registry.parse('noop,rename'));
  });

  it('expands presets in place, at the current nesting level', () => {
    expect(registry.print(registry.parse('noop,toy-default'))).toBe('noop,rename<prefix=p_;no-upper>,function(append-line<text=end>)');
    expect(registry.print(registry.parse('module(toy-lint)', { unit: imageSetKind }), { unit: imageSetKind })).toBe('module(function(lint-bad))');
  });

  it('resolves require<...> and invalidate<...> to the analysis, wrapping function analyses', () => {
    expect(registry.parse('require<module-size>,invalidate<line-count>')).toEqual([
      { name: 'require', options: { analysis: 'module-size' } },
      { name: 'function', options: {}, inner: [{ name: 'invalidate', options: { analysis: 'line-count' } }] },
    ]);
  });

  it('parses the empty text as the empty pipeline', () => {
    expect(registry.parse('')).toEqual([]);
    expect(registry.print([])).toBe('');
  });
});

describe('PassRegistry.parse errors carry the offset of the culprit', () => {
  const cases: [text: string, offset: number, message: RegExp][] = [
    ['noop,renam', 5, /unknown pass 'renam'; did you mean 'rename'\?/],
    ['rename<uper>', 7, /unknown option 'uper'; did you mean 'upper'\?/],
    ['every-option<max-size=2000>', 22, /must be at most 1000/],
    ['every-option<max-size=ten>', 22, /'ten' is not an integer/],
    ['every-option<level=middle>', 19, /'middle' is not one of low, high/],
    ['rename<upper=true>', 7, /boolean option 'upper' takes no value; write 'upper' or 'no-upper'/],
    ['rename<prefix>', 7, /needs a value: prefix=<string>/],
    ['rename<upper;no-upper>', 13, /given more than once/],
    ['noop(rename)', 4, /pass 'noop' does not take a nested pipeline/],
    ['function<x>(noop-function)', 8, /takes no options/],
    ['function', 0, /needs a nested pipeline/],
    ['require<nothing>', 8, /unknown analysis 'nothing'/],
    ['require', 0, /exactly one analysis name/],
    ['count-modules', 0, /runs on images units and cannot run in a module pipeline/],
    ['toy-lint<x>', 8, /preset 'toy-lint' takes no options/],
    ['noop,,rename', 5, /expected a pass name, found ','/],
    ['noop(rename', 4, /unclosed '\(' of 'noop'/],
    ['noop)', 4, /unmatched '\)'/],
    ['rename<prefix=a', 6, /unterminated options/],
    ['noop rename', 5, /expected ',' or end of pipeline, found 'r'/],
    ['function()', 8, /empty nested pipeline/],
  ];
  for (const [text, offset, message] of cases) {
    it(`rejects '${text}' at offset ${offset}`, () => {
      const error = parseError(text);
      expect(error.message).toMatch(message);
      expect(error.offset).toBe(offset);
      expect(error.text).toBe(text);
    });
  }

  it('reports errors inside a preset against the preset text', () => {
    const broken = registry.extend({ presets: { 'bad-preset': 'noop,nope' } });
    let caught: unknown;
    try {
      broken.parse('rename,bad-preset');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PipelineError);
    expect((caught as PipelineError).render()).toBe("preset 'bad-preset':1:6: error: unknown pass 'nope'; did you mean 'noop'?\nnoop,nope\n     ^~~~\n");
  });

  it('rejects a preset that includes itself', () => {
    const looping = registry.extend({ presets: { a: 'noop,b', b: 'a' } });
    expect(() => looping.parse('a')).toThrow(/preset 'a' includes itself \(a -> b -> a\)/);
  });

  it('renders with the source name given to parse', () => {
    const error = (() => {
      try {
        registry.parse('noop,bogus', { source: '-passes' });
      } catch (e) {
        return e as PipelineError;
      }
      throw new Error('no error');
    })();
    expect(error.render()).toBe("-passes:1:6: error: unknown pass 'bogus'\nnoop,bogus\n     ^~~~~\n");
  });
});

describe('PassRegistry.print', () => {
  it('fills in defaults for partial hand-written nodes and orders options as declared', () => {
    expect(registry.print([{ name: 'every-option', options: { level: 'high', verbose: true } }])).toBe(
      'every-option<verbose;keep-debug;max-size=4;offset=-1;prefix=;targets=;auto;level=high>',
    );
  });

  it('refuses nodes that cannot print back to themselves', () => {
    expect(() => registry.print([{ name: 'rename', options: { prefix: 'a;b' } }])).toThrow(/must not contain ';'/);
    expect(() => registry.print([{ name: 'append-line', options: {} }])).toThrow(/runs on function units, not module units/);
    expect(() => registry.print([{ name: 'function', options: {}, inner: [] }])).toThrow(/empty nested pipeline/);
    expect(() => registry.print([{ name: 'rename', options: { prefixx: 'a' } }])).toThrow(/has no option 'prefixx'; did you mean 'prefix'\?/);
  });
});

describe('PassRegistry.build', () => {
  it('builds a runnable pipeline from text and runs it over the unit', () => {
    const module = toyModule('m', { f: ['a'], g: [] });
    const pipeline = registry.build<ToyModule>('rename<prefix=k_>,append-line<text=ret>', { unit: moduleKind });
    expect(pipeline.text).toBe('rename<prefix=k_;no-upper>,function(append-line<text=ret>)');
    pipeline.run(module);
    expect(module.functions).toEqual([
      { name: 'k_f', lines: ['a', 'ret'] },
      { name: 'k_g', lines: ['ret'] },
    ]);
  });

  it('hands command-line flags to the factory, marking which were given', () => {
    const flags = registry.parseFlags([
      ['toy-mark-fixed-targets', 'host,,gpu'],
      ['toy-mark-exclude-aspects', 'fp64'],
      ['toy-mark-strict', undefined],
    ]);
    const module = toyModule('m', {});
    registry.build<ToyModule>('mark<targets=cpu>', { unit: moduleKind, flags }).run(module);
    expect(module.functions[0]!.lines).toEqual(['targets=cpu,host,gpu', 'exclude=fp64', 'depth=2', 'strict=true']);

    const plain = toyModule('m', {});
    registry.build<ToyModule>('mark<targets=cpu>', { unit: moduleKind }).run(plain);
    expect(plain.functions[0]!.lines).toEqual(['targets=cpu', 'exclude=', 'depth=2', 'strict=false']);
  });
});

describe('command-line flags', () => {
  it('lists each declared flag once with its syntax, help and passes', () => {
    const flags = registry.commandLineFlags();
    expect(flags.map((f) => f.syntax)).toEqual([
      '-toy-mark-exclude-aspects=<aspect,...>',
      '-toy-mark-fixed-targets=<string,...>',
      '-toy-mark-depth=<int>',
      '-toy-mark-strict',
    ]);
    expect(flags[2]).toMatchObject({ name: 'toy-mark-depth', takesValue: true, hidden: true, passes: ['mark'] });
    expect(flags[3]).toMatchObject({ takesValue: false, help: '-toy-mark-strict  Be strict (default: false)' });
  });

  it('rejects unknown, repeated and malformed flags with a FlagError naming the flag', () => {
    expect(() => registry.parseFlags([['toy-mark-dept', '1']])).toThrow(/unknown flag '-toy-mark-dept'; did you mean '-toy-mark-depth'\?/);
    expect(() => registry.parseFlags([['toy-mark-depth', '1'], ['toy-mark-depth', '2']])).toThrow(/may only occur zero or one times/);
    expect(() => registry.parseFlags([['toy-mark-depth', '-1']])).toThrow(/must be at least 0/);
    expect(() => registry.parseFlags([['toy-mark-depth', undefined]])).toThrow(/needs a value: -toy-mark-depth=<int>/);
    expect(() => registry.parseFlags([['toy-mark-strict', 'maybe']])).toThrow(FlagError);
    expect(registry.parseFlags([['toy-mark-strict', 'false']]).get('toy-mark-strict')).toBe(false);
  });

  it('lets two passes share a flag only when they declare it the same way', () => {
    const shared = flag.stringList('shared-flag', { doc: 'x' });
    const a = definePass({ name: 'a', unit: moduleKind, summary: '', preserves: 'all', flags: { s: shared }, create: () => () => PreservedAnalyses.all() });
    const b = definePass({ name: 'b', unit: moduleKind, summary: '', preserves: 'all', flags: { t: shared }, create: () => () => PreservedAnalyses.all() });
    expect(createRegistry({ passes: [a, b] }).commandLineFlags()[0]!.passes).toEqual(['a', 'b']);
    const c = definePass({
      name: 'c',
      unit: moduleKind,
      summary: '',
      preserves: 'all',
      flags: { s: flag.integer('shared-flag', { doc: 'x' }) },
      create: () => () => PreservedAnalyses.all(),
    });
    expect(() => createRegistry({ passes: [a, c] })).toThrow(/declared differently by passes 'a' and 'c'/);
  });
});

describe('registry construction', () => {
  it('rejects a name used twice across passes, kinds, presets and builtins', () => {
    const clash = definePass({ name: 'function', unit: moduleKind, summary: '', preserves: 'all', create: () => () => PreservedAnalyses.all() });
    expect(() => createRegistry({ passes: [clash] })).toThrow(/'function' names both a unit kind and a pass/);
    expect(() => registry.extend({ presets: { noop: 'rename' } })).toThrow(/'noop' names both a pass and a preset/);
    const require = definePass({ name: 'require', unit: moduleKind, summary: '', preserves: 'all', create: () => () => PreservedAnalyses.all() });
    expect(() => createRegistry({ passes: [require] })).toThrow(/names both a builtin and a pass/);
  });

  it('collects unit kinds from passes, analyses and sub-units, first given kind as default', () => {
    expect([...registry.unitKinds.keys()]).toEqual(['module', 'function', 'images']);
    expect(registry.parse('noop')).toEqual([{ name: 'noop', options: {} }]);
  });

  it('lists codes with the passes that declare them, and the manager codes', () => {
    const codes = registry.diagnosticCodes();
    expect(codes.get('bad-line')).toEqual({ severity: 'warning', summary: "A line says 'bad'.", passes: ['lint-bad'] });
    expect(codes.get('unreported-change')?.passes).toEqual([]);
  });

  it('describes passes with options, flags, preserves, analyses and presets', () => {
    const text = registry.describe();
    expect(text).toContain('module passes (nest with: function(...)):');
    expect(text).toContain('  rename<prefix=<string>;[no-]upper>\n      Prefixes function names. Preserves: line-count.');
    expect(text).toContain('      -toy-mark-exclude-aspects=<aspect,...>  Aspects to exclude (default: none)');
    expect(text).toContain('  require<line-count>, invalidate<line-count>  Number of lines in a function.');
    expect(text).toContain('presets:\n  toy-default = rename<prefix=p_>,append-line<text=end>\n');
  });

  it('accepts a unit kind by name and rejects unknown ones', () => {
    expect(registry.parse('noop-function', { unit: 'function' })).toEqual([{ name: 'noop-function', options: {} }]);
    expect(() => registry.parse('noop', { unit: 'modul' })).toThrow(/unknown unit kind 'modul'; did you mean 'module'\?/);
    expect(() => registry.parse('module(noop)', { unit: functionKind })).toThrow(/function units have no module sub-units/);
  });
});
