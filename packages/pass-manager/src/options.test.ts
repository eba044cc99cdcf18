import { describe, expect, expectTypeOf, it } from 'vitest';
import { definePass, flag, option, PipelineError, PreservedAnalyses, type OptionValues } from './index.js';
import { describeOptions, optionsDoc, optionTextName, parseFlagValue } from './options.js';
import { everyOption, moduleKind } from '../test/toy.js';

describe('option builders', () => {
  it('fill in documented defaults: false, 0, empty string, empty list, first enum value', () => {
    expect(option.boolean({ doc: 'd' }).default).toBe(false);
    expect(option.integer({ doc: 'd' }).default).toBe(0);
    expect(option.string({ doc: 'd' }).default).toBe('');
    expect(option.stringList({ doc: 'd' }).default).toEqual([]);
    expect(option.enum(['x', 'y'], { doc: 'd' }).default).toBe('x');
    expect(() => option.enum([], { doc: 'd' })).toThrow(/at least one value/);
    expect(() => option.enum([';', '#'], { doc: 'd' })).toThrow(/contains ';'/);
    expect(() => option.enum(['a', 'a'], { doc: 'd' })).toThrow(/repeat/);
  });

  it('infer the typed option values of a schema', () => {
    type Values = OptionValues<typeof everyOption.options>;
    expectTypeOf<Values['verbose']>().toEqualTypeOf<boolean>();
    expectTypeOf<Values['maxSize']>().toEqualTypeOf<number>();
    expectTypeOf<Values['targets']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<Values['mode']>().toEqualTypeOf<'per-kernel' | 'per-module' | 'auto'>();
  });

  it('name flags exactly as given and refuse names with spaces', () => {
    expect(flag.string('sycl-conditional-call-on-device-unique-prefix', { doc: 'd' }).name).toBe('sycl-conditional-call-on-device-unique-prefix');
    expect(() => flag.string('has space', { doc: 'd' })).toThrow(/invalid flag name/);
  });
});

describe('option text names', () => {
  it('derive kebab-case from camelCase keys', () => {
    expect(optionTextName('maxSize')).toBe('max-size');
    expect(optionTextName('fp64ConvEmu')).toBe('fp64-conv-emu');
    expect(() => optionTextName('Upper')).toThrow(/kebab-case/);
    expect(() => optionTextName('two__underscores')).toThrow(/kebab-case/);
  });
});

describe('entry.parseOptions', () => {
  it('parses the text between the angle brackets with defaults filled in', () => {
    expect(everyOption.parseOptions('per-module;targets=a,,b;prefix= spaced ')).toEqual({
      verbose: false,
      keepDebug: true,
      maxSize: 4,
      offset: -1,
      prefix: ' spaced ',
      targets: ['a', 'b'],
      mode: 'per-module',
      level: 'low',
    });
  });

  it('gives errors with offsets into the options text', () => {
    const error = (() => {
      try {
        everyOption.parseOptions('verbose;max-size=-2');
      } catch (e) {
        return e as PipelineError;
      }
      throw new Error('no error');
    })();
    expect(error).toBeInstanceOf(PipelineError);
    expect(error.offset).toBe(17);
    expect(error.render()).toBe(
      "every-option:1:18: error: invalid value for option 'max-size' of pass 'every-option': -2 is out of range: must be at least 0\nverbose;max-size=-2\n                 ^~\n",
    );
    expect(() => everyOption.parseOptions('a>b')).toThrow(/'>' inside options/);
  });

  it('tells a pass without options that it takes none', () => {
    const plain = definePass({ name: 'plain', unit: moduleKind, summary: '', preserves: 'all', create: () => () => PreservedAnalyses.all() });
    expect(() => plain.parseOptions('x')).toThrow(/unknown option 'x'; pass 'plain' takes no options/);
    expect(plain.parseOptions('')).toEqual({});
  });
});

describe('entry.printOptions and docs', () => {
  it('prints every option in declaration order, booleans as x/no-x and bare enums alone', () => {
    expect(everyOption.printOptions(everyOption.parseOptions('verbose;targets=t1,t2;per-kernel'))).toBe(
      '<verbose;keep-debug;max-size=4;offset=-1;prefix=;targets=t1,t2;per-kernel;level=low>',
    );
  });

  it('documents the syntax in LLVM params-doc style and one help row per option', () => {
    expect(everyOption.optionsDoc).toBe(
      '[no-]verbose;[no-]keep-debug;max-size=<int>;offset=<int>;prefix=<string>;targets=<target,...>;per-kernel|per-module|auto;level=low|high',
    );
    expect(optionsDoc({})).toBe('');
    expect(describeOptions(everyOption.options)[2]).toBe('max-size=<int>  Largest size (default: 4)');
    expect(describeOptions(everyOption.options)[4]).toBe("prefix=<string>  A prefix (default: '')");
  });
});

describe('definePass checks the declaration', () => {
  const base = { unit: moduleKind, summary: '', preserves: 'all' as const, create: () => () => PreservedAnalyses.all() };

  it('rejects names that are not kebab-case and spellings that mean two things', () => {
    expect(() => definePass({ ...base, name: 'BadName' })).toThrow(/not kebab-case/);
    expect(() =>
      definePass({ ...base, name: 'clash', options: { fast: option.boolean({ doc: '' }), mode: option.enum(['fast', 'slow'], { doc: '', bare: true }) } }),
    ).toThrow(/'fast' would mean both option 'fast' and option 'mode'/);
    expect(() =>
      definePass({ ...base, name: 'clash', options: { x: option.boolean({ doc: '' }), noX: option.integer({ doc: '' }) } }),
    ).toThrow(/'no-x' would mean both/);
    expect(() => definePass({ ...base, name: 'eq', options: { m: option.enum(['a=b'], { doc: '', bare: true }) } })).toThrow(/contains '='/);
  });

  it('rejects invalid defaults and bad diagnostic codes', () => {
    expect(() => definePass({ ...base, name: 'p', options: { n: option.integer({ doc: '', default: 5, max: 3 }) } })).toThrow(
      /default of option 'n' must be at most 3/,
    );
    expect(() => definePass({ ...base, name: 'p', diagnostics: { Bad: { severity: 'warning', summary: '' } } })).toThrow(/not kebab-case/);
  });

  it('checks programmatic options and cross-option constraints at instantiate', () => {
    const ranged = definePass({
      ...base,
      name: 'ranged',
      options: { low: option.integer({ doc: '' }), high: option.integer({ doc: '', default: 10 }) },
      validate: (o) => (o.low > o.high ? `low (${o.low}) is above high (${o.high})` : undefined),
    });
    expect(() => ranged.instantiate({ low: 20 })).toThrow("pass 'ranged': low (20) is above high (10)");
    expect(() => ranged.instantiate({ low: 1.5 })).toThrow(/must be an integer/);
    expect(ranged.instantiate({ low: 3 }).text).toBe('ranged<low=3;high=10>');
  });
});

describe('parseFlagValue', () => {
  it('reads cl::opt values: bare booleans, true/false/1/0, lists split on commas', () => {
    const strict = flag.boolean('strict', { doc: '' });
    expect(parseFlagValue(strict, undefined)).toBe(true);
    expect(parseFlagValue(strict, 'FALSE')).toBe(false);
    expect(parseFlagValue(strict, '1')).toBe(true);
    expect(parseFlagValue(flag.stringList('l', { doc: '' }), ',a,,b,')).toEqual(['a', 'b']);
    expect(parseFlagValue(flag.string('s', { doc: '' }), '')).toBe('');
    expect(() => parseFlagValue(flag.enum('e', ['x', 'y'], { doc: '' }), 'z')).toThrow(/'z' is not one of x, y/);
  });
});
