/**
 * Benchmarks of @syclkit/runtime's submission path (run after `npx tsc -b packages/runtime`):
 *
 *   warm-submit   ns per `queue.parallelFor(K, range)` once K's program is in the cache
 *                 (kernel lookup, requirement check, cache hit), and ns per `runtime.checkKernel`
 *                 alone; both for a plain image and for one with two add-on images.
 *   first-submit  the first submission on a fat binary of 4,000 images written to a container
 *                 file: opening the container (header, trailer and index with its lookup table),
 *                 registering it, and the first submit (lookup of the kernel and the records of
 *                 its images, bundle and image choice, add-on resolution, check, reading one
 *                 image, parsing its IR, building).
 *
 * usage: node tools/bench/runtime/submit.mjs [--images N] [--rounds N] [--iterations N] [--json]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PropertySetRegistry, addDeviceRequirements, boolValue, uint32ArrayValue } from '@syclkit/formats';
import { ContainerReader, deviceImage, writeContainerFile } from '@syclkit/offload-wrapper';
import { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET, Runtime, deviceFromTarget, range } from '@syclkit/runtime';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}
const IMAGES = option('images', 4000);
const ROUNDS = option('rounds', 7);
const ITERATIONS = option('iterations', 100_000);
const JSON_OUTPUT = process.argv.includes('--json');

const encoder = new TextEncoder();
const ASPECTS = [[], [5], [6], [28], [5, 6]];

/** The IR of one image: a kernel calling a helper, both with the image's aspects. */
function kernelIr(kernel, aspects, extraCalls = []) {
  const md = aspects.length === 0 ? '' : ' !sycl_used_aspects !0';
  const calls = [`  call spir_func void @${kernel}_helper()`, ...extraCalls.map((f) => `  call spir_func void @${f}()`)].join('\n');
  return [
    'target triple = "spir64-unknown-unknown"',
    '',
    `define spir_kernel void @${kernel}() #0${md} {`,
    'entry:',
    calls,
    '  ret void',
    '}',
    '',
    `define internal spir_func void @${kernel}_helper()${md} {`,
    'entry:',
    '  ret void',
    '}',
    ...extraCalls.map((f) => `\ndeclare spir_func void @${f}()`),
    '',
    'attributes #0 = { "sycl-module-id"="bench.cpp" }',
    ...(aspects.length === 0 ? [] : [`!0 = !{${aspects.map((a) => `i32 ${a}`).join(', ')}}`]),
    '',
  ].join('\n');
}

function requirements(aspects, extra = () => {}) {
  const properties = new PropertySetRegistry();
  addDeviceRequirements(properties, { aspects });
  extra(properties);
  return properties;
}

/**
 * A descriptor of `count` images in the spir64 bundle: one kernel per image, every tenth image
 * with two add-on image pairs (four more images, counted in `count`).
 */
function descriptor(count) {
  const images = [];
  let pair = 0;
  for (let i = 0; images.length < count; i++) {
    const kernel = `K${i}`;
    const aspects = ASPECTS[i % ASPECTS.length];
    const withAddOns = i % 10 === 0 && images.length + 5 <= count;
    const actions = withAddOns ? [`${kernel}_a0`, `${kernel}_a1`] : [];
    const ids = actions.map(() => String(++pair));
    images.push(
      deviceImage({
        name: `img${i}`,
        target: 'spir64',
        image: encoder.encode(kernelIr(kernel, aspects, actions)),
        entries: [kernel],
        properties: requirements(aspects, (p) => ids.forEach((id, j) => p.add(ADD_ON_IMAGES_SET, id, uint32ArrayValue([-1 >>> 0, j === 0 ? 5 : 9])))),
      }),
    );
    actions.forEach((action, j) => {
      for (const primary of [true, false]) {
        const text = ['target triple = "spir64-unknown-unknown"', '', `define spir_func void @${action}() {`, 'entry:', '  ret void', '}', ''].join('\n');
        images.push(
          deviceImage({
            name: `img${i}_addon${ids[j]}_${primary ? 'def' : 'stub'}`,
            target: 'spir64',
            image: encoder.encode(text),
            properties: requirements([], (p) => p.add(ADD_ON_IMAGE_SET, ids[j], boolValue(primary))),
          }),
        );
      }
    });
  }
  return { bundles: [{ target: 'spir64', images }] };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const now = () => process.hrtime.bigint();

/** ns per call of `fn`, median over rounds (each of `iterations` calls, after a warm-up round). */
function perCall(fn, iterations = ITERATIONS) {
  for (let i = 0; i < Math.min(iterations, 20_000); i++) fn();
  const samples = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = now();
    for (let i = 0; i < iterations; i++) fn();
    samples.push(Number(now() - start) / iterations);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

function warmSubmit() {
  const runtime = new Runtime();
  runtime.registerFatBinary(descriptor(200), { name: 'warm' });
  const queue = runtime.queue(deviceFromTarget('intel_gpu_pvc'));
  const r = range(1024);
  queue.parallelFor('K1', r);
  queue.parallelFor('K0', r); // K0 has two add-on images
  const rows = [
    ['submit, plain image (cache hit)', perCall(() => queue.parallelFor('K1', r))],
    ['submit, image with 2 add-on images (cache hit)', perCall(() => queue.parallelFor('K0', r))],
    ['checkKernel only, plain image', perCall(() => runtime.checkKernel('K1', queue.device, { dims: 1 }))],
  ];
  const stats = runtime.programCache.stats();
  return { rows, cache: stats };
}

function firstSubmit() {
  const dir = mkdtempSync(join(tmpdir(), 'syclkit-bench-runtime-'));
  try {
    const file = join(dir, 'app.fatbin');
    const written = writeContainerFile(file, descriptor(IMAGES));
    const kernel = 'K1234';
    const device = deviceFromTarget('intel_gpu_pvc');
    const samples = { open: [], register: [], first: [], second: [], total: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = now();
      const reader = ContainerReader.open(file);
      const t1 = now();
      const runtime = new Runtime();
      runtime.registerFatBinary(reader);
      const t2 = now();
      const launch = runtime.queue(device).parallelFor(kernel, range(64));
      const t3 = now();
      runtime.queue(device).parallelFor(kernel, range(64));
      const t4 = now();
      reader.close();
      if (launch.programCacheHit) throw new Error('the first submit hit the cache');
      samples.open.push(Number(t1 - t0) / 1e6);
      samples.register.push(Number(t2 - t1) / 1e6);
      samples.first.push(Number(t3 - t2) / 1e6);
      samples.second.push(Number(t4 - t3) / 1e6);
      samples.total.push(Number(t3 - t0) / 1e6);
    }
    return { images: written.images, bytes: statSync(file).size, samples };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const environment = { node: process.version, platform: `${process.platform} ${process.arch}` };
// The first-submit rounds run first, so the warm loop's garbage does not land in them.
const first = firstSubmit();
const warm = warmSubmit();

if (JSON_OUTPUT) {
  console.log(JSON.stringify({ environment, rounds: ROUNDS, iterations: ITERATIONS, warm, first }, null, 2));
} else {
  const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(3));
  console.log(`node ${environment.node}, ${environment.platform}; ${ROUNDS} rounds, medians`);
  console.log('');
  console.log('warm cache (ns per call, median [min–max])');
  for (const [label, s] of warm.rows) console.log(`  ${label.padEnd(50)} ${fmt(s.median).padStart(8)} ns  [${fmt(s.min)}–${fmt(s.max)}]`);
  console.log(`  program cache: ${warm.cache.misses} builds, ${warm.cache.hits} hits`);
  console.log('');
  console.log(`first submit on a ${first.images}-image container (${(first.bytes / 1024 / 1024).toFixed(1)} MiB), ms, median [min–max]`);
  for (const [label, key] of [
    ['open container (header, trailer, index)', 'open'],
    ['registerFatBinary', 'register'],
    ['first submit (lookup, records, choice, check, read, parse, build)', 'first'],
    ['second submit of the same kernel (cache hit)', 'second'],
    ['open + register + first submit', 'total'],
  ]) {
    const values = first.samples[key];
    console.log(`  ${label.padEnd(58)} ${fmt(median(values)).padStart(8)} ms  [${fmt(Math.min(...values))}–${fmt(Math.max(...values))}]`);
  }
}
