/**
 * OpenCL math functions neither LLVM 16 back end selects (NVPTX and AMDGPU have no `pow`, `exp` or
 * `log` of their own; CUDA and ROCm take them from libdevice / ocml, which syclkit does not have):
 * our own implementations in IR, linked into a module on demand as internal functions.
 *
 * Double precision throughout (the float versions widen, compute, narrow):
 * - `log`: x = m·2^e with m in [√½, √2), log m = 2·atanh(s), s = (m−1)/(m+1), by its odd series
 *   to s^23 (|s| ≤ 0.172), plus e·ln 2 in two parts; subnormals are scaled first;
 * - `exp`: x = n·ln 2 + r with |r| ≤ ½ ln 2, e^r by its Taylor series to r^13, times 2^n built
 *   from exponent bits in two steps (so subnormal results come out right);
 * - `exp2` as 2^n·e^(f·ln 2) with n = rint(x), f = x − n; `exp10`, `log2`, `log10` through exp and log
 *   (their error grows with |x|·2^-53, like pow's); `pow(x, y)` = exp(y·log|x|) with IEEE's special
 *   cases (y = 0 or x = 1 give 1, a negative x needs an integer y, odd y keeps the sign); `powr`
 *   (x ≥ 0) and `pown` (integer y).
 * Results are within a few ulp for moderate arguments; `pow` loses about |y·log x|·2^-53 relative.
 */
import { parseModule, type Module } from '@syclkit/ir';

/** Per OpenCL name: the symbol of each precision. */
export const DEVICE_MATH: Readonly<Record<string, { readonly symbol: (precision: 'f32' | 'f64') => string }>> = Object.fromEntries(
  ['exp', 'exp2', 'exp10', 'log', 'log2', 'log10', 'pow', 'powr', 'pown'].map((name) => [name, { symbol: (p: 'f32' | 'f64') => `__syclkit_${name}_${p}` }]),
);

function hex(value: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return `0x${view.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0')}`;
}

const LN2_HI = hex(6.93147180369123816490e-1);
const LN2_LO = hex(1.90821492927058770002e-10);
const INV_LN2 = hex(1 / Math.LN2);
const LN2 = hex(Math.LN2);
const LN10 = hex(Math.LN10);
const INV_LN10 = hex(1 / Math.LN10);
const SQRT2 = hex(Math.SQRT2);

/** Horner evaluation of coefficients (highest power first) in `z`, as IR lines; returns the result name. */
function horner(prefix: string, z: string, coefficients: readonly number[], lines: string[]): string {
  let acc = hex(coefficients[0]!);
  for (let i = 1; i < coefficients.length; i++) {
    lines.push(`  %${prefix}${i}m = fmul double ${acc}, ${z}`);
    lines.push(`  %${prefix}${i} = fadd double %${prefix}${i}m, ${hex(coefficients[i]!)}`);
    acc = `%${prefix}${i}`;
  }
  return acc;
}

function logText(): string {
  const lines = [
    'define internal double @__syclkit_log_f64(double %x) {',
    'entry:',
    '  %tiny = fcmp olt double %x, 0x0010000000000000',
    `  %scaled = fmul double %x, ${hex(2 ** 54)}`,
    '  %xs = select i1 %tiny, double %scaled, double %x',
    '  %adj = select i1 %tiny, i64 -54, i64 0',
    '  %bits = bitcast double %xs to i64',
    '  %eb = lshr i64 %bits, 52',
    '  %e = and i64 %eb, 2047',
    '  %mb0 = and i64 %bits, 4503599627370495',
    '  %mb = or i64 %mb0, 4607182418800017408',
    '  %m1 = bitcast i64 %mb to double',
    `  %big = fcmp ogt double %m1, ${SQRT2}`,
    '  %half = fmul double %m1, 5.000000e-01',
    '  %m = select i1 %big, double %half, double %m1',
    '  %bump = zext i1 %big to i64',
    '  %e1 = add i64 %e, %bump',
    '  %e2 = add i64 %e1, %adj',
    '  %e3 = sub i64 %e2, 1023',
    '  %num = fsub double %m, 1.000000e+00',
    '  %den = fadd double %m, 1.000000e+00',
    '  %s = fdiv double %num, %den',
    '  %z = fmul double %s, %s',
  ];
  // 2·atanh(s) = 2s·(1 + z/3 + z²/5 + … + z^11/23)
  const coefficients = Array.from({ length: 12 }, (_, i) => 1 / (2 * (11 - i) + 1));
  const p = horner('p', '%z', coefficients, lines);
  lines.push(
    '  %s2 = fmul double %s, 2.000000e+00',
    `  %logm = fmul double %s2, ${p}`,
    '  %ef = sitofp i64 %e3 to double',
    `  %lo = fmul double %ef, ${LN2_LO}`,
    '  %lo2 = fadd double %lo, %logm',
    `  %hi = fmul double %ef, ${LN2_HI}`,
    '  %r = fadd double %hi, %lo2',
    // log(x<0 or NaN) = NaN, log(0) = -inf, log(+inf) = +inf
    '  %bad = fcmp ult double %x, 0.000000e+00',
    '  %zero = fcmp oeq double %x, 0.000000e+00',
    '  %inf = fcmp oeq double %x, 0x7FF0000000000000',
    '  %r1 = select i1 %inf, double 0x7FF0000000000000, double %r',
    '  %r2 = select i1 %zero, double 0xFFF0000000000000, double %r1',
    '  %r3 = select i1 %bad, double 0x7FF8000000000000, double %r2',
    '  ret double %r3',
    '}',
  );
  return lines.join('\n');
}

function expText(): string {
  const lines = [
    'define internal double @__syclkit_exp_f64(double %x) {',
    'entry:',
    '  %lo = call double @llvm.maxnum.f64(double %x, double -7.460000e+02)',
    '  %xc = call double @llvm.minnum.f64(double %lo, double 7.100000e+02)',
    `  %t = fmul double %xc, ${INV_LN2}`,
    '  %nf = call double @llvm.rint.f64(double %t)',
    '  %n = fptosi double %nf to i64',
    `  %a = fmul double %nf, ${LN2_HI}`,
    '  %r0 = fsub double %xc, %a',
    `  %b = fmul double %nf, ${LN2_LO}`,
    '  %r = fsub double %r0, %b',
  ];
  // e^r = Σ r^k / k!, k = 0..13
  const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1));
  const coefficients = Array.from({ length: 14 }, (_, i) => 1 / factorial(13 - i));
  const p = horner('p', '%r', coefficients, lines);
  lines.push(
    // 2^n in two steps: n1 = n/2, n2 = n - n1, each a normal power of two
    '  %n1 = sdiv i64 %n, 2',
    '  %n2 = sub i64 %n, %n1',
    '  %k1 = add i64 %n1, 1023',
    '  %k2 = add i64 %n2, 1023',
    '  %b1 = shl i64 %k1, 52',
    '  %b2 = shl i64 %k2, 52',
    '  %s1 = bitcast i64 %b1 to double',
    '  %s2 = bitcast i64 %b2 to double',
    `  %y1 = fmul double ${p}, %s1`,
    '  %y = fmul double %y1, %s2',
    '  %over = fcmp ogt double %x, 0x40862E42FEFA39EF',
    '  %under = fcmp olt double %x, -7.451332191019412e+02',
    '  %nan = fcmp uno double %x, 0.000000e+00',
    '  %y2 = select i1 %over, double 0x7FF0000000000000, double %y',
    '  %y3 = select i1 %under, double 0.000000e+00, double %y2',
    '  %y4 = select i1 %nan, double %x, double %y3',
    '  ret double %y4',
    '}',
  );
  return lines.join('\n');
}

const DOUBLE_FUNCTIONS = `
define internal double @__syclkit_exp2_f64(double %x) {
entry:
  %lo = call double @llvm.maxnum.f64(double %x, double -1.080000e+03)
  %xc = call double @llvm.minnum.f64(double %lo, double 1.030000e+03)
  %nf = call double @llvm.rint.f64(double %xc)
  %f = fsub double %xc, %nf
  %t = fmul double %f, ${LN2}
  %e = call double @__syclkit_exp_f64(double %t)
  %n = fptosi double %nf to i64
  %n1 = sdiv i64 %n, 2
  %n2 = sub i64 %n, %n1
  %k1 = add i64 %n1, 1023
  %k2 = add i64 %n2, 1023
  %b1 = shl i64 %k1, 52
  %b2 = shl i64 %k2, 52
  %s1 = bitcast i64 %b1 to double
  %s2 = bitcast i64 %b2 to double
  %y1 = fmul double %e, %s1
  %y = fmul double %y1, %s2
  %over = fcmp oge double %x, 1.024000e+03
  %under = fcmp olt double %x, -1.075000e+03
  %nan = fcmp uno double %x, 0.000000e+00
  %y2 = select i1 %over, double 0x7FF0000000000000, double %y
  %y3 = select i1 %under, double 0.000000e+00, double %y2
  %y4 = select i1 %nan, double %x, double %y3
  ret double %y4
}

define internal double @__syclkit_exp10_f64(double %x) {
entry:
  %t = fmul double %x, ${LN10}
  %r = call double @__syclkit_exp_f64(double %t)
  ret double %r
}

define internal double @__syclkit_log2_f64(double %x) {
entry:
  %l = call double @__syclkit_log_f64(double %x)
  %r = fmul double %l, ${INV_LN2}
  ret double %r
}

define internal double @__syclkit_log10_f64(double %x) {
entry:
  %l = call double @__syclkit_log_f64(double %x)
  %r = fmul double %l, ${INV_LN10}
  ret double %r
}

define internal double @__syclkit_pow_f64(double %x, double %y) {
entry:
  %ax = call double @llvm.fabs.f64(double %x)
  %l = call double @__syclkit_log_f64(double %ax)
  %t = fmul double %y, %l
  %m = call double @__syclkit_exp_f64(double %t)
  %yt = call double @llvm.trunc.f64(double %y)
  %yint = fcmp oeq double %yt, %y
  %yh = fmul double %y, 5.000000e-01
  %yht = call double @llvm.trunc.f64(double %yh)
  %yodd0 = fcmp one double %yht, %yh
  %yodd = and i1 %yint, %yodd0
  %xneg = fcmp olt double %x, 0.000000e+00
  %negz = fcmp oeq double %x, 0.000000e+00
  %xbits = bitcast double %x to i64
  %xsign = icmp slt i64 %xbits, 0
  %signed = and i1 %xsign, %yodd
  %neg = fneg double %m
  %r1 = select i1 %signed, double %neg, double %m
  %notint = xor i1 %yint, true
  %badneg = and i1 %xneg, %notint
  %r2 = select i1 %badneg, double 0x7FF8000000000000, double %r1
  %yzero = fcmp oeq double %y, 0.000000e+00
  %xone = fcmp oeq double %x, 1.000000e+00
  %one = or i1 %yzero, %xone
  %r3 = select i1 %one, double 1.000000e+00, double %r2
  ret double %r3
}

define internal double @__syclkit_powr_f64(double %x, double %y) {
entry:
  %neg = fcmp olt double %x, 0.000000e+00
  %p = call double @__syclkit_pow_f64(double %x, double %y)
  %r = select i1 %neg, double 0x7FF8000000000000, double %p
  ret double %r
}

define internal double @__syclkit_pown_f64(double %x, i32 %n) {
entry:
  %y = sitofp i32 %n to double
  %r = call double @__syclkit_pow_f64(double %x, double %y)
  ret double %r
}
`;

function floatWrappers(): string {
  const unary = ['exp', 'exp2', 'exp10', 'log', 'log2', 'log10'].map(
    (n) => `define internal float @__syclkit_${n}_f32(float %x) {
entry:
  %w = fpext float %x to double
  %r = call double @__syclkit_${n}_f64(double %w)
  %n = fptrunc double %r to float
  ret float %n
}`,
  );
  const binary = ['pow', 'powr'].map(
    (n) => `define internal float @__syclkit_${n}_f32(float %x, float %y) {
entry:
  %wx = fpext float %x to double
  %wy = fpext float %y to double
  %r = call double @__syclkit_${n}_f64(double %wx, double %wy)
  %n = fptrunc double %r to float
  ret float %n
}`,
  );
  const pown = `define internal float @__syclkit_pown_f32(float %x, i32 %k) {
entry:
  %wx = fpext float %x to double
  %r = call double @__syclkit_pown_f64(double %wx, i32 %k)
  %n = fptrunc double %r to float
  ret float %n
}`;
  return [...unary, ...binary, pown].join('\n\n');
}

/** The whole library as IR text (its functions call each other; unused ones are dropped when linked). */
export function deviceMathText(): string {
  return [
    logText(),
    expText(),
    DOUBLE_FUNCTIONS,
    floatWrappers(),
    'declare double @llvm.maxnum.f64(double, double)',
    'declare double @llvm.minnum.f64(double, double)',
    'declare double @llvm.rint.f64(double)',
    'declare double @llvm.trunc.f64(double)',
    'declare double @llvm.fabs.f64(double)',
    '',
  ].join('\n\n');
}

/**
 * AMDGPU's buffered printf (LLVM 16's AMDGPUPrintfRuntimeBinding turns `printf` calls into
 * stores to a buffer it gets from `__printf_alloc`, which ROCm's device libraries provide): our
 * own `__printf_alloc`, from the runtime's protocol. The buffer is the `hidden_printf_buffer`
 * implicit kernel argument (slot 3 of the code object v4 implicit arguments); its first word is
 * the write offset, its second the capacity, data starts at byte 8. A record is reserved by a
 * compare-and-swap on the offset; a full buffer gives null (the message is dropped).
 */
const PRINTF_ALLOC = `
define hidden ptr addrspace(1) @__printf_alloc(i32 %bytes) {
entry:
  %args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %slot = getelementptr inbounds i8, ptr addrspace(4) %args, i64 24
  %buf = load ptr addrspace(1), ptr addrspace(4) %slot, align 8
  %sizep = getelementptr inbounds i8, ptr addrspace(1) %buf, i64 4
  %size = load i32, ptr addrspace(1) %sizep, align 4
  %start = load atomic i32, ptr addrspace(1) %buf syncscope("agent") monotonic, align 4
  br label %loop

loop:
  %off = phi i32 [ %start, %entry ], [ %seen, %retry ]
  %need = add i32 %off, %bytes
  %end = add i32 %need, 8
  %full = icmp ugt i32 %end, %size
  br i1 %full, label %none, label %try

try:
  %pair = cmpxchg ptr addrspace(1) %buf, i32 %off, i32 %need syncscope("agent") monotonic monotonic, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %done, label %retry

retry:
  br label %loop

done:
  %pos0 = zext i32 %off to i64
  %pos = add i64 %pos0, 8
  %p = getelementptr inbounds i8, ptr addrspace(1) %buf, i64 %pos
  ret ptr addrspace(1) %p

none:
  ret ptr addrspace(1) null
}

declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
`;

/** The name of our AMDGPU printf buffer allocator (see {@link PRINTF_ALLOC}). */
export const PRINTF_ALLOC_SYMBOL = '__printf_alloc';

/**
 * Links the named library functions (and what they call) into `module` as internal definitions,
 * replacing declarations of the same names that the builtin lowering made.
 */
export function linkDeviceMath(module: Module, names: ReadonlySet<string>): void {
  const amdgpu = module.triple.startsWith('amdgcn');
  const library = parseModule(deviceMathText() + (amdgpu ? PRINTF_ALLOC : ''), { context: module.context, filename: '<syclkit device library>' });
  const wanted = new Set<string>();
  const visit = (name: string): void => {
    if (wanted.has(name)) return;
    const fn = library.getFunction(name);
    if (fn === undefined || fn.isDeclaration) return;
    wanted.add(name);
    for (const inst of fn.instructions()) {
      const callee = inst.operands[0];
      if (inst.opcode === 'call' && callee?.vk === 'function') visit(callee.name);
    }
  };
  for (const n of names) visit(n);
  for (const fn of [...library.functions]) {
    if (!wanted.has(fn.name)) continue;
    library.remove(fn);
    const existing = module.getFunction(fn.name);
    if (existing !== undefined) {
      // the lowering declared it; calls refer to the declaration, which takes the body
      existing.blocks = fn.blocks;
      for (const b of existing.blocks) b.parent = existing;
      existing.args = fn.args.map((a) => Object.assign(a, { parent: existing }));
      existing.linkage = fn.linkage;
      existing.visibility = fn.visibility;
      existing.attributes = fn.attributes;
      continue;
    }
    module.addFunction(fn);
  }
  // library functions call intrinsics and each other by the library's declarations: point them at the module's
  for (const name of wanted) {
    const fn = module.getFunction(name)!;
    for (const inst of fn.instructions()) {
      const callee = inst.operands[0];
      if (inst.opcode !== 'call' || callee?.vk !== 'function' || callee.parent === module) continue;
      let target = module.getFunction(callee.name);
      if (target === undefined) {
        library.remove(callee);
        target = module.addFunction(callee);
      }
      inst.operands[0] = target;
    }
  }
}
