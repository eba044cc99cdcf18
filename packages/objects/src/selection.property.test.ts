// Properties checked:
// 1. Member selection is closed: after it, no needed symbol is left that an unchosen member
//    defines (a linker would have pulled that member).
// 2. It is minimal in the linker's sense: every chosen member defined a symbol that was needed,
//    and not yet defined, when it was pulled.
// 3. kernelOfHostSymbol(kernelInfoSymbol(k, member)) = k for kernel names built from Itanium
//    source names, nested names, template arguments (literals, substitutions) and unnamed
//    lambdas with discriminators, and any member function name.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fcOptions } from '@syclkit/testing';
import { kernelInfoSymbol, kernelOfHostSymbol } from './host-kernels.js';
import { selectArchiveMembers } from './member-selection.js';

const symbol: fc.Arbitrary<string> = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const input = fc.record({ defines: fc.uniqueArray(symbol, { maxLength: 3 }), needs: fc.uniqueArray(symbol, { maxLength: 3 }) });

describe('archive member selection', () => {
  test.prop([fc.array(input, { maxLength: 3 }), fc.array(fc.array(input, { maxLength: 4 }), { maxLength: 3 })], fcOptions())('is closed and minimal', (linked, archives) => {
    const chosen = selectArchiveMembers(linked, archives);
    const taken = new Set(chosen.map((c) => c.member));
    const all = [...linked, ...chosen.map((c) => c.member)];
    const defined = new Set(all.flatMap((i) => i.defines));
    const needed = new Set(all.flatMap((i) => i.needs).filter((s) => !defined.has(s)));
    for (const archive of archives) for (const m of archive) if (!taken.has(m)) expect(m.defines.some((s) => needed.has(s))).toBe(false);
    const seen = new Set(linked.flatMap((i) => i.defines));
    for (const c of chosen) {
      expect(c.member.defines).toContain(c.because);
      expect(seen.has(c.because)).toBe(false);
      for (const s of c.member.defines) seen.add(s);
    }
  });
});

const sourceName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/).map((n) => `${n.length}${n}`);
const typeName = fc.oneof(
  sourceName,
  fc.array(sourceName, { minLength: 2, maxLength: 3 }).map((parts) => `N${parts.join('')}E`),
  fc.tuple(sourceName, fc.array(fc.constantFrom('i', 'f', 'd', 'Li3E', 'S_', 'St'), { minLength: 1, maxLength: 3 })).map(([n, args]) => `${n}I${args.join('')}E`),
  // an unnamed lambda: Z <function> E Ul <parameters> E [<discriminator>] _
  fc.tuple(sourceName, fc.constantFrom('v', 'i', 'N4sycl3_V12idILi1EEE'), fc.option(fc.nat({ max: 30 }), { nil: undefined })).map(([fn, params, n]) => `Z${fn}EUl${params}E${n ?? ''}_`),
);
const memberName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,20}$/);

describe('host kernel references', () => {
  test.prop([typeName, memberName], fcOptions())('a KernelInfo<K> member names kernel K', (type, member) => {
    expect(kernelOfHostSymbol(kernelInfoSymbol(`_ZTS${type}`, member))).toBe(`_ZTS${type}`);
  });
});
