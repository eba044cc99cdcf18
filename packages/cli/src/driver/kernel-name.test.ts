import { describe, expect, it } from 'vitest';
import { resolveKernelName } from './kernel-name.js';

const kernels = ['_ZTS9Integrate', '_ZTSN1a6ReduceE', '_ZTSN1b6ReduceE'];
const error = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('resolveKernelName', () => {
  it('takes the name in the binary, the type name, or the unqualified type name', () => {
    expect(resolveKernelName('_ZTS9Integrate', kernels)).toBe('_ZTS9Integrate');
    expect(resolveKernelName('Integrate', kernels)).toBe('_ZTS9Integrate');
    expect(resolveKernelName('a::Reduce', kernels)).toBe('_ZTSN1a6ReduceE');
  });

  it('names every candidate of an ambiguous name', () => {
    expect(error(() => resolveKernelName('Reduce', kernels))).toBe("kernel name 'Reduce' is ambiguous: it names _ZTSN1a6ReduceE, _ZTSN1b6ReduceE; give the full name of one");
  });

  it('suggests type names as well as binary names for a name that matches nothing, with the context the command gives', () => {
    expect(error(() => resolveKernelName('Integrat', kernels))).toBe(
      "no kernel 'Integrat'; did you mean 'Integrate'? (kernels: _ZTS9Integrate, _ZTSN1a6ReduceE, _ZTSN1b6ReduceE)",
    );
    expect(error(() => resolveKernelName('X', [], { prefix: '--require: ', missing: 'the binary has no kernel' }))).toBe("--require: the binary has no kernel 'X' (kernels: none)");
  });
});
