/**
 * Properties of parseArgs:
 * 1. Round trip: items rendered as `-name=value`, `-name` and positionals (anything after `--`
 *    is positional, even when it looks like an option) parse back to exactly those items.
 * 2. `positionals` and `ordered` are exactly the positional and option items of `items`, in order.
 * 3. Every value option's `values` list is its option items' values, in order.
 */
import fc from 'fast-check';
import { fcOptions } from '@syclkit/testing';
import { describe, expect, it } from 'vitest';
import { parseArgs, type ArgItem, type OptionSpec } from './args.js';

const SPECS: readonly OptionSpec[] = [
  { name: 'o', kind: 'value' },
  { name: 'S' },
  { name: 'passes', kind: 'value', joinedOnly: true },
  { name: 'target', kind: 'value', repeatable: true },
  { name: 'v', repeatable: true },
];

const word = fc.stringMatching(/^[a-z0-9_.,=-]{0,8}$/);
const positional = word.filter((w) => w !== '' && !w.startsWith('-'));

/** Command lines parseArgs accepts: single-valued options at most once. */
const commandLine = fc
  .record({
    o: fc.option(word, { nil: undefined }),
    passes: fc.option(word, { nil: undefined }),
    rest: fc.array(fc.oneof(fc.constant<ArgItem>({ kind: 'option', name: 'S' }), fc.constant<ArgItem>({ kind: 'option', name: 'v' }), word.map((value): ArgItem => ({ kind: 'option', name: 'target', value })), positional.map((value): ArgItem => ({ kind: 'positional', value }))), { maxLength: 10 }),
    trailing: fc.array(word, { maxLength: 3 }),
  })
  .chain(({ o, passes, rest, trailing }) => {
    const singles: ArgItem[] = [];
    if (o !== undefined) singles.push({ kind: 'option', name: 'o', value: o });
    if (passes !== undefined) singles.push({ kind: 'option', name: 'passes', value: passes });
    return fc.shuffledSubarray([...rest, ...singles], { minLength: rest.length + singles.length }).map((items) => ({ items, trailing }));
  });

function render(items: readonly ArgItem[], trailing: readonly string[]): string[] {
  const argv = items.map((item) => (item.kind === 'positional' ? item.value : item.value === undefined ? `-${item.name}` : `-${item.name}=${item.value}`));
  return trailing.length > 0 ? [...argv, '--', ...trailing] : argv;
}

describe('parseArgs properties', () => {
  it('round-trips items and keeps positionals, ordered and values consistent with them', () => {
    fc.assert(
      fc.property(commandLine, ({ items, trailing }) => {
        const args = parseArgs(render(items, trailing), SPECS);
        const expected = [...items, ...trailing.map((value): ArgItem => ({ kind: 'positional', value }))];
        expect(args.items).toEqual(expected);
        expect(args.positionals).toEqual(expected.flatMap((i) => (i.kind === 'positional' ? [i.value] : [])));
        expect(args.ordered).toEqual(expected.flatMap((i) => (i.kind === 'option' ? [i.value === undefined ? { name: i.name } : { name: i.name, value: i.value }] : [])));
        for (const name of ['o', 'passes', 'target']) {
          const given = expected.flatMap((i) => (i.kind === 'option' && i.name === name ? [i.value] : []));
          expect(args.values.get(name) ?? []).toEqual(given);
        }
      }),
      fcOptions(200),
    );
  });
});
