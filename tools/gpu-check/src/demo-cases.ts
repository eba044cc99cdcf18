/**
 * The demo program's kernels (`syclkit demo`, packages/cli/src/driver/sample.ts) with data and
 * the same computation in JavaScript. Each case makes seeded inputs, the arguments in the order of
 * the kernel's parameters, and after the launch compares the device's results with the host's.
 */
import { kernelArg, type KernelArg } from '@syclkit/runtime';
import { compare, fromHalfBits, seededRandom, toHalfBits, ulpDistance32, type Comparison } from './numbers.js';

/** One run of a demo kernel: its arguments, then the check of what the device wrote. */
export interface DemoRun {
  readonly args: readonly KernelArg[];
  /** Compares the device's results (already copied back into the arguments' arrays) with the host's. */
  check(): Comparison;
  /** The result bytes, to compare two runs (per_kernel and auto splits). */
  output(): Uint8Array;
}

export interface DemoCase {
  readonly kernel: string;
  /** The kernel's name in the C++ source. */
  readonly label: string;
  /** What the kernel computes, as the host computes it. */
  readonly what: string;
  /** The range submitted (undefined: single_task). */
  readonly range: readonly number[];
  /** How the device result may differ from the host's (`0` means bit for bit). */
  readonly tolerance: string;
  make(seed: number): DemoRun;
}

/** A demo kernel the CUDA device must refuse at submission, with the reason. */
export interface RefusedCase {
  readonly kernel: string;
  readonly label: string;
  readonly range: readonly number[];
  readonly expected: string;
}

const N = 4096;
const bytes = (view: ArrayBufferView): Uint8Array => new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));

/** `1.0 / 2.2` as tonemap.ll writes it: the double 0x3FDD1745D1745D17. */
const GAMMA = new Float64Array(new BigUint64Array([0x3fdd1745d1745d17n]).buffer)[0]!;

export const DEMO_CASES: readonly DemoCase[] = [
  {
    kernel: '_ZTS9Integrate',
    label: 'Integrate',
    what: 'pos[i] += advance(vel[i], dt), advance(v, dt) = v * dt (float)',
    range: [N],
    tolerance: '1 ulp (float multiply, then add: a contraction into one fma would be 1 ulp off; the count of bit-identical results says whether there was one)',
    make(seed) {
      const random = seededRandom(seed);
      const pos = Float32Array.from({ length: N }, () => random() * 200 - 100);
      const vel = Float32Array.from({ length: N }, () => random() * 20 - 10);
      const dt = Math.fround(0.01);
      const host = pos.map((p, i) => Math.fround(p + Math.fround(vel[i]! * dt)));
      return { args: [kernelArg.buffer(pos), kernelArg.buffer(vel, 'read'), kernelArg.f32(dt)], check: () => compare(pos, host, 1, ulpDistance32), output: () => bytes(pos) };
    },
  },
  {
    kernel: '_ZTS13ScaleVelocity',
    label: 'ScaleVelocity',
    what: 'vel[i] = (float)((double)vel[i] * 0.99) (fp64)',
    range: [N],
    tolerance: '0 ulp (one double multiply, one rounding to float)',
    make(seed) {
      const random = seededRandom(seed);
      const vel = Float32Array.from({ length: N }, () => random() * 20 - 10);
      const host = vel.map((v) => Math.fround(v * 0.99));
      return { args: [kernelArg.buffer(vel)], check: () => compare(vel, host, 0, ulpDistance32), output: () => bytes(vel) };
    },
  },
  {
    kernel: '_ZTS14EnergyCounters',
    label: 'EnergyCounters',
    what: 'atomic_ref<unsigned long>(*hits).fetch_add(1) by every work-item (atomic64)',
    range: [N],
    tolerance: 'exact count',
    make(seed) {
      const start = BigInt(Math.floor(seededRandom(seed)() * 1e9));
      const hits = new BigUint64Array([start]);
      return { args: [kernelArg.buffer(hits)], check: () => compare(hits, new BigUint64Array([start + BigInt(N)])), output: () => bytes(hits) };
    },
  },
  {
    kernel: '_ZTS11ShadePixels',
    label: 'ShadePixels',
    what: 'px[i] = tonemap(px[i]) = (float)pow((double)px[i], 1/2.2); then, since the device has fp16, px[i] = (float)(half)px[i]',
    range: [N],
    tolerance: '1 half-precision ulp (the device pow is libdevice\'s, the host\'s is V8\'s)',
    make(seed) {
      const random = seededRandom(seed);
      const px = Float32Array.from({ length: N }, () => random());
      const host = px.map((x) => fromHalfBits(toHalfBits(Math.fround(Math.pow(x, GAMMA)))));
      return {
        args: [kernelArg.buffer(px)],
        check: () => compare(px, host, 1, (a, b) => Math.abs(toHalfBits(a) - toHalfBits(b))),
        output: () => bytes(px),
      };
    },
  },
  {
    kernel: '_ZTS13HalfHistogram',
    label: 'HalfHistogram',
    what: 'hist[bucket(in[i], 64)]++, bucket(v, bins) = (int)(v * (bins / 2.0)); inputs k/32 so each work-item has its own bucket (the increment is not atomic)',
    range: [64],
    tolerance: 'exact counts',
    make(seed) {
      const random = seededRandom(seed);
      const input = Uint16Array.from({ length: 64 }, (_, k) => toHalfBits(k / 32));
      const hist = Int32Array.from({ length: 64 }, () => Math.floor(random() * 1000));
      const host = hist.map((n) => n + 1);
      return { args: [kernelArg.buffer(input, 'read'), kernelArg.buffer(hist)], check: () => compare(hist, host), output: () => bytes(hist) };
    },
  },
];

export const REFUSED_CASES: readonly RefusedCase[] = [
  {
    kernel: '_ZTS14SubgroupReduce',
    label: 'SubgroupReduce',
    range: [N],
    expected: 'kernel_not_supported: Sub-group size 8 is not supported on the device',
  },
];
