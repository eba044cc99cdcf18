import { describe, expect, it } from 'vitest';
import { kernelTypeName, kernelsNamed, typeinfoName } from './kernel-names.js';

describe('typeinfoName', () => {
  it('mangles a class name, qualified or not', () => {
    expect(typeinfoName('ScaleVelocity')).toBe('_ZTS13ScaleVelocity');
    expect(typeinfoName('ns::Reduce')).toBe('_ZTSN2ns6ReduceE');
    expect(typeinfoName('::Reduce')).toBe('_ZTS6Reduce');
  });

  it('gives nothing for what is not a chain of identifiers', () => {
    expect(typeinfoName('')).toBeUndefined();
    expect(typeinfoName('a b')).toBeUndefined();
    expect(typeinfoName('ns::')).toBeUndefined();
    expect(typeinfoName('Reduce<int>')).toBeUndefined();
  });
});

describe('kernelTypeName', () => {
  it('takes the last name outside template arguments', () => {
    expect(kernelTypeName('_ZTS13ScaleVelocity')).toBe('ScaleVelocity');
    expect(kernelTypeName('_ZTSN2ns6ReduceE')).toBe('Reduce');
    expect(kernelTypeName('_ZTSZ4mainE9Integrate')).toBe('Integrate');
    expect(kernelTypeName('_ZTSZ4mainvE9Integrate')).toBe('Integrate');
    expect(kernelTypeName('_ZTSN2ns6ReduceIiEE')).toBe('Reduce');
    expect(kernelTypeName('_ZTS6KernelILi16EE')).toBe('Kernel');
    expect(kernelTypeName('_ZTSN2ns6KernelIN3foo3BarEEE')).toBe('Kernel');
  });

  it('gives nothing for other names and unnamed types', () => {
    expect(kernelTypeName('kernel')).toBeUndefined();
    expect(kernelTypeName('_Z3foov')).toBeUndefined();
    expect(kernelTypeName('_ZTSZ4mainEUlvE_')).toBeUndefined();
    expect(kernelTypeName('_ZTS99short')).toBeUndefined();
  });
});

describe('kernelsNamed', () => {
  const kernels = ['_ZTS13ScaleVelocity', '_ZTSN2ns6ReduceE', '_ZTSN3alt6ReduceE', '_ZTS6Reduce2', 'plain'];

  it('takes the exact name first', () => {
    expect(kernelsNamed('plain', kernels)).toEqual(['plain']);
    expect(kernelsNamed('_ZTSN2ns6ReduceE', kernels)).toEqual(['_ZTSN2ns6ReduceE']);
  });

  it('then the kernel of the class the name spells, qualified or not', () => {
    expect(kernelsNamed('ScaleVelocity', kernels)).toEqual(['_ZTS13ScaleVelocity']);
    expect(kernelsNamed('ns::Reduce', kernels)).toEqual(['_ZTSN2ns6ReduceE']);
  });

  it('then every kernel whose type has that unqualified name: several mean the name is ambiguous', () => {
    expect(kernelsNamed('Reduce', kernels)).toEqual(['_ZTSN2ns6ReduceE', '_ZTSN3alt6ReduceE']);
    expect(kernelsNamed('Reduce', [...kernels, '_ZTS6Reduce'])).toEqual(['_ZTS6Reduce']);
  });

  it('gives nothing when nothing matches', () => {
    expect(kernelsNamed('Nope', kernels)).toEqual([]);
  });
});
