/**
 * `SYCL/devicelib req mask`: which fallback device libraries an image needs, from the
 * `__devicelib_*` functions it declares (reference §2.2). Bit n is `DeviceLibExt` n.
 *
 * Upstream keeps a name table; the classification here is by the naming scheme of libdevice
 * (float vs double variants, complex, cstring, assert, imf and its fp64 / bf16 parts).
 */
import type { Module } from '@syclkit/ir';

export const DeviceLibExt = {
  assert: 0,
  math: 1,
  mathFp64: 2,
  complex: 3,
  complexFp64: 4,
  cstring: 5,
  imf: 6,
  imfFp64: 7,
  imfBf16: 8,
  bfloat16: 9,
} as const;

const PREFIX = '__devicelib_';

const LIBM = new Set(
  (
    'acos acosh asin asinh atan atan2 atanh cbrt cos cosh erf erfc exp exp2 expm1 fdim fma fmod frexp ' +
    'hypot ilogb ldexp lgamma log log10 log1p log2 logb modf nextafter pow remainder remquo scalbn sin ' +
    'sinh sqrt tan tanh tgamma'
  ).split(' '),
);
const INTEGER_MATH = new Set(['abs', 'div', 'labs', 'ldiv', 'llabs', 'lldiv']);
const COMPLEX = new Set(
  'cabs cacos cacosh carg casin casinh catan catanh ccos ccosh cexp cimag clog cpolar cpow cproj creal csin csinh csqrt ctan ctanh'.split(' '),
);
const IMF_DOUBLE_MATH = new Set(
  'fma floor ceil fabs trunc rint rcp64h nearbyint inv sqrt rsqrt fmax fmin copysign'.split(' '),
);

/** The `DeviceLibExt` bit of one `__devicelib_*` name, or undefined for names outside the libraries. */
export function deviceLibExtension(name: string): number | undefined {
  if (!name.startsWith(PREFIX)) return undefined;
  const base = name.slice(PREFIX.length);
  if (base.startsWith('assert_')) return DeviceLibExt.assert;
  if (base === 'memcpy' || base === 'memset' || base === 'memcmp') return DeviceLibExt.cstring;
  if (base === '__divsc3' || base === '__mulsc3') return DeviceLibExt.complex;
  if (base === '__divdc3' || base === '__muldc3') return DeviceLibExt.complexFp64;
  if (base.startsWith('imf_')) return imfExtension(base.slice(4));
  if (base.startsWith('ConvertBF16ToFINTEL') || base.startsWith('ConvertFToBF16INTEL')) return DeviceLibExt.bfloat16;
  if (INTEGER_MATH.has(base)) return DeviceLibExt.math;
  if (COMPLEX.has(base)) return DeviceLibExt.complexFp64;
  if (base.endsWith('f') && COMPLEX.has(base.slice(0, -1))) return DeviceLibExt.complex;
  if (LIBM.has(base)) return DeviceLibExt.mathFp64;
  if (base.endsWith('f') && LIBM.has(base.slice(0, -1))) return DeviceLibExt.math;
  return undefined;
}

function imfExtension(op: string): number {
  if (op.includes('double') || IMF_DOUBLE_MATH.has(op) || /^d(add|sub|mul|div|fma|sqrt|rcp)_/.test(op)) return DeviceLibExt.imfFp64;
  if (op.includes('bf16') || op.includes('bfloat16')) return DeviceLibExt.imfBf16;
  return DeviceLibExt.imf;
}

/** The mask of an image: 0 unless the target is SPIR; bits of the `__devicelib_*` declarations. */
export function deviceLibReqMask(module: Module): number {
  if (!module.triple.startsWith('spir')) return 0;
  let mask = 0;
  for (const fn of module.functions) {
    if (!fn.isDeclaration || !fn.name.startsWith(PREFIX)) continue;
    const bit = deviceLibExtension(fn.name);
    if (bit !== undefined) mask |= 1 << bit;
  }
  return mask >>> 0;
}
