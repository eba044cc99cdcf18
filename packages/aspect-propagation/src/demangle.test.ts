import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demangle } from './demangle.js';

// Expected strings are what LLVM 16's llvm-cxxfilt (llvm::demangle) prints for these names.
const CASES: readonly (readonly [string, string])[] = [
  ['_Z3foov', 'foo()'],
  ['_Z5func2ii', 'func2(int, int)'],
  ['_ZN1A3fooEv', 'A::foo()'],
  ['_ZNK1A3fooEv', 'A::foo() const'],
  ['_ZN1AC2Ev', 'A::A()'],
  ['_ZN1AD2Ev', 'A::~A()'],
  ['_ZN1AcviEv', 'A::operator int()'],
  ['_ZplRK1AS1_', 'operator+(A const&, A const&)'],
  ['_Z3barPKcRi', 'bar(char const*, int&)'],
  ['_Z1fOi', 'f(int&&)'],
  ['_Z3bazPFviE', 'baz(void (*)(int))'],
  ['_Z1fPA4_i', 'f(int (*) [4])'],
  ['_Z1fRA3_i', 'f(int (&) [3])'],
  ['_Z1fPU3AS1i', 'f(int AS1*)'],
  ['_Z1fDh', 'f(half)'],
  ['_Z1fIiEvT_', 'void f<int>(int)'],
  ['_Z1fIJidEEvDpT_', 'void f<int, double>(int, double)'],
  ['_Z3fooIiLi3EEvv', 'void foo<int, 3>()'],
  ['_ZN12_GLOBAL__N_13fooEv', '(anonymous namespace)::foo()'],
  ['_Z1gSt6vectorIiSaIiEE', 'g(std::vector<int, std::allocator<int>>)'],
  ['_ZNSt3__16vectorIiNS_9allocatorIiEEE9push_backERKi', 'std::__1::vector<int, std::__1::allocator<int>>::push_back(int const&)'],
  ['_Z3food.cold', 'foo(double) (.cold)'],
  ['_ZZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_ENKUlvE_clEv', "main::'lambda'(sycl::_V1::handler&)::operator()(sycl::_V1::handler&) const::'lambda'()::operator()() const"],
  ['_ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_EUlvE_', "typeinfo name for main::'lambda'(sycl::_V1::handler&)::operator()(sycl::_V1::handler&) const::'lambda'()"],
  [
    '_ZN4sycl3_V18accessorIdLi1ELNS0_6access4modeE1026ELNS2_6targetE2014ELNS2_11placeholderE0ENS0_3ext6oneapi22accessor_property_listIJEEEE6__initEPU3AS1dNS0_5rangeILi1EEESE_NS0_2idILi1EEE',
    'sycl::_V1::accessor<double, 1, (sycl::_V1::access::mode)1026, (sycl::_V1::access::target)2014, (sycl::_V1::access::placeholder)0, sycl::_V1::ext::oneapi::accessor_property_list<>>::__init(double AS1*, sycl::_V1::range<1>, sycl::_V1::range<1>, sycl::_V1::id<1>)',
  ],
  [
    '_ZN4sycl3_V16detail7declptrINS0_3vecIfLi4EEEEEPT_S6_',
    'sycl::_V1::vec<float, 4>* sycl::_V1::detail::declptr<sycl::_V1::vec<float, 4>>(sycl::_V1::vec<float, 4>*)',
  ],
];

describe('demangle', () => {
  it.each(CASES)('demangles %s like llvm::demangle', (mangled, expected) => {
    expect(demangle(mangled)).toBe(expected);
  });

  it('returns undefined for names that are not Itanium-mangled', () => {
    expect(demangle('kernel')).toBeUndefined();
    expect(demangle('llvm.memcpy.p0.p0.i64')).toBeUndefined();
  });

  it('returns undefined rather than guessing on truncated or unsupported manglings', () => {
    expect(demangle('_Z3fo')).toBeUndefined();
    expect(demangle('_ZN4sycl3_V13ext6oneapi12experimental6detail31call_if_on_device_conditionally')).toBeUndefined();
    expect(demangle('_Z1fIiEvXT_E')).toBeUndefined(); // expressions in template arguments
  });

  const cxxfilt = ['/usr/lib/llvm-16/bin/llvm-cxxfilt', '/usr/bin/llvm-cxxfilt'].find((p) => existsSync(p));
  it.skipIf(cxxfilt === undefined)('agrees with llvm-cxxfilt on every name it accepts', () => {
    const names = CASES.map(([m]) => m);
    const out = spawnSync(cxxfilt!, names, { encoding: 'utf8' }).stdout.trim().split('\n');
    names.forEach((name, i) => expect(demangle(name)).toBe(out[i]));
  });
});
