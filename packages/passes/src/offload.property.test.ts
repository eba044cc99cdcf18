/**
 * Properties of the offload pipeline over generated device programs, for a generic and two device
 * bundles:
 *
 * 1. every kernel is an entry of exactly one image of each bundle, and the bundles list the same
 *    images (names, entries) in the same order;
 * 2. an image with entry points is empty in a device bundle exactly when that target lacks an
 *    aspect or the sub-group size it requires;
 * 3. image sets sharded over k workers (k = 1..3) together produce exactly the images (ids,
 *    entries, properties, bytes) of the unsharded set;
 * 4. the container is byte-identical across runs.
 */
import { fc, test } from '@fast-check/vitest';
import { DeviceConfig } from '@syclkit/device-config';
import { ContainerReader } from '@syclkit/offload-wrapper';
import { targetIncompatibility } from '@syclkit/post-link';
import { writePropertySetRegistry, decodeUint32Array } from '@syclkit/formats';
import { fcOptions } from '@syclkit/testing';
import { describe, expect } from 'vitest';
import { functionName, genProgram, programModule } from '../test/programs.js';
import { runOffload } from '../test/run.js';

const outputs = [{ name: 'spir64' }, { name: 'intel_gpu_tgllp', target: 'intel_gpu_tgllp' }, { name: 'intel_gpu_pvc', target: 'intel_gpu_pvc' }];
const config = DeviceConfig.builtin();
/** The programs' `!sycl_aspects`. */
const ASPECT_NAMES = new Map([[5, 'fp16'], [6, 'fp64'], [7, 'atomic64'], [8, 'ext_intel_esimd']]);

describe('offload pipeline (property)', () => {
  test.prop([genProgram], fcOptions(25))('every kernel in one image per bundle; empty rows exactly where the target falls short', async (fns) => {
    const run = await runOffload(programModule(fns), outputs);
    expect(run.result.stopped).toBe(false);
    const kernels = fns.flatMap((f, i) => (f.kind === 'kernel' ? [functionName(fns, i)] : [])).sort();
    const shapes = outputs.map((o) => (run.bundles.get(o.target ?? o.name) ?? []).map((i) => `${i.name.replace(/^app_[a-z0-9_]+?_(\d+)$/, '$1')}:${i.entries.join(',')}`));
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    for (const o of outputs) {
      const images = run.bundles.get(o.target ?? o.name) ?? [];
      expect(images.flatMap((i) => i.entries).filter((e) => kernels.includes(e)).sort()).toEqual(kernels);
      if (o.target === undefined) continue;
      for (const image of images) {
        if (image.entries.length === 0) continue;
        const aspects = decodeUint32Array(image.properties.get('SYCL/device requirements', 'aspects')!);
        const sg = image.properties.get('SYCL/device requirements', 'reqd_sub_group_size');
        const names = aspects.map((value) => ({ value, ...(ASPECT_NAMES.has(value) ? { name: ASPECT_NAMES.get(value)! } : {}) }));
        const why = targetIncompatibility(config, o.target, { aspects: names, esimd: false, ...(sg?.type === 1 ? { reqdSubGroupSize: sg.value } : {}) });
        expect(image.empty, `${image.name} on ${o.target}`).toBe(why !== undefined);
      }
    }
  });

  test.prop([genProgram, fc.integer({ min: 1, max: 3 })], fcOptions(20))('sharded sets together make the images of one set, byte for byte', async (fns, count) => {
    const whole = await runOffload(programModule(fns), outputs);
    const again = await runOffload(programModule(fns), outputs);
    expect(Buffer.from(again.bytes!).equals(Buffer.from(whole.bytes!))).toBe(true);
    const describeImages = (bytes: Uint8Array): Map<string, string> => {
      const reader = ContainerReader.fromBytes(bytes);
      const out = new Map<string, string>();
      for (const image of reader.images) {
        const data = Buffer.from(reader.readImageData(image)).toString('latin1');
        out.set(`${image.target} ${image.name}`, `${image.entries.join(',')}|${image.empty}|${image.format}|${writePropertySetRegistry(image.properties)}|${data}`);
      }
      return out;
    };
    const expected = describeImages(whole.bytes!);
    const sharded = new Map<string, string>();
    for (let index = 0; index < count; index++) {
      const part = await runOffload(programModule(fns), outputs, { shard: { index, count } });
      expect(part.result.stopped).toBe(false);
      for (const [key, value] of describeImages(part.bytes!)) {
        expect(sharded.has(key)).toBe(false);
        sharded.set(key, value);
      }
    }
    expect(new Map([...sharded].sort())).toEqual(new Map([...expected].sort()));
  });
});
