import { describe, expect, it } from 'vitest';
import { kernelInfoSymbol, kernelOfHostSymbol, kernelsReferencedBy } from './host-kernels.js';

describe('kernels named by host symbols', () => {
  it('reads the kernel name type out of a KernelInfo<T> member', () => {
    expect(kernelOfHostSymbol('_ZN4sycl3_V16detail10KernelInfoI9IntegrateE7getNameEv')).toBe('_ZTS9Integrate');
    expect(kernelOfHostSymbol('_ZN4sycl3_V16detail10KernelInfoIN2ns6KernelEE12getNumParamsEv')).toBe('_ZTSN2ns6KernelE');
    expect(kernelOfHostSymbol('_ZN4sycl3_V16detail10KernelInfoIZ4mainEUlvE_E12getParamDescEi')).toBe('_ZTSZ4mainEUlvE_');
    expect(kernelOfHostSymbol('_ZN2cl4sycl6detail10KernelInfoI3FooE7getNameEv')).toBe('_ZTS3Foo');
  });

  it('ignores other symbols', () => {
    expect(kernelOfHostSymbol('main')).toBeUndefined();
    expect(kernelOfHostSymbol('_ZN4sycl3_V16detail10KernelInfoI')).toBeUndefined();
    expect(kernelOfHostSymbol('_ZN4sycl3_V16detail10KernelInfoI9IntegrateE9getNameEv')).toBeUndefined(); // length 9 for a 7-letter name
  });

  it('makes the symbol a host object holds for a kernel, and lists each kernel once', () => {
    expect(kernelInfoSymbol('_ZTS9Integrate')).toBe('_ZN4sycl3_V16detail10KernelInfoI9IntegrateE7getNameEv');
    expect(() => kernelInfoSymbol('Integrate')).toThrow(/not a typeinfo name/);
    const symbols = [kernelInfoSymbol('_ZTS1A'), kernelInfoSymbol('_ZTS1A', 'getNumParams'), { name: 'puts' }, kernelInfoSymbol('_ZTS1B')].map((s) => (typeof s === 'string' ? { name: s } : s));
    expect(kernelsReferencedBy(symbols)).toEqual(['_ZTS1A', '_ZTS1B']);
  });
});
