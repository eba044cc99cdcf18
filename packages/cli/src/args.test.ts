import { describe, expect, it } from 'vitest';
import { choiceOf, formatOptions, parseArgs, UsageError, valueOf, type OptionSpec } from './args.js';

const SPECS: readonly OptionSpec[] = [
  { name: 'o', kind: 'value', help: 'output', valueName: '<file>' },
  { name: 'S', help: 'text output' },
  { name: 'passes', kind: 'value', joinedOnly: true, help: 'pipeline' },
  { name: 'target', kind: 'value', repeatable: true },
  { name: 'help', aliases: ['h'] },
];

describe('parseArgs', () => {
  it('accepts -name=value, --name=value and -name value, and flags by alias', () => {
    const args = parseArgs(['-o', 'out.ll', '--passes=a,b', '-h', 'in.ll'], SPECS);
    expect(valueOf(args, 'o')).toBe('out.ll');
    expect(valueOf(args, 'passes')).toBe('a,b');
    expect(args.flags.has('help')).toBe(true);
    expect(args.positionals).toEqual(['in.ll']);
  });

  it('keeps options and positionals interleaved in items, and options alone in ordered', () => {
    const args = parseArgs(['-target=a', 'x.bin', '-S', '-target', 'b', 'y.bin', '--', '-z'], SPECS);
    expect(args.items).toEqual([
      { kind: 'option', name: 'target', value: 'a' },
      { kind: 'positional', value: 'x.bin' },
      { kind: 'option', name: 'S' },
      { kind: 'option', name: 'target', value: 'b' },
      { kind: 'positional', value: 'y.bin' },
      { kind: 'positional', value: '-z' },
    ]);
    expect(args.ordered).toEqual([{ name: 'target', value: 'a' }, { name: 'S' }, { name: 'target', value: 'b' }]);
    expect(args.values.get('target')).toEqual(['a', 'b']);
  });

  it('treats - as a positional (stdin)', () => {
    expect(parseArgs(['-'], SPECS).positionals).toEqual(['-']);
  });

  it('lets -flag=false undo an earlier flag', () => {
    expect(parseArgs(['-S', '-S=false'], SPECS).flags.has('S')).toBe(false);
  });

  it.each([
    [['-pases=x'], "unknown option '-pases=x'; did you mean '-passes'?"],
    [['-S=maybe'], "option '-S' does not take a value"],
    [['-passes', 'x'], "option '-passes' needs a value: -passes=<value>"],
    [['-o'], "option '-o' needs a value"],
    [['-o', 'a', '-o', 'b'], "option '-o' given more than once"],
  ])('rejects %j with a usage error', (argv, message) => {
    expect(() => parseArgs(argv, SPECS)).toThrow(new UsageError(message));
  });
});

describe('choiceOf', () => {
  it('gives the chosen value, undefined when absent, and a usage error listing the choices otherwise', () => {
    const modes = ['kernel', 'source'] as const;
    expect(choiceOf(parseArgs(['-o=source'], SPECS), 'o', modes)).toBe('source');
    expect(choiceOf(parseArgs([], SPECS), 'o', modes)).toBeUndefined();
    expect(() => choiceOf(parseArgs(['-o=module'], SPECS), 'o', modes)).toThrow(new UsageError("invalid value 'module' for -o; expected kernel|source"));
  });
});

describe('formatOptions', () => {
  it('lists the options that have help, in declaration order, with their value syntax', () => {
    const lines = formatOptions(SPECS).trimEnd().split('\n');
    expect(lines.map((line) => line.trim().split(/\s+/)[0])).toEqual(['-o', '-S', '-passes=<value>']);
    expect(lines[0]).toMatch(/^ {2}-o <file> +output$/);
  });
});
