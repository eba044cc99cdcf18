// Assemble your own device toolchain from the syclkit packages, in memory: parse device IR,
// run a pipeline from text, split into images the design's way, wrap them into a fat binary,
// and ask the runtime which device can run which kernel. Run: node docs/examples/assemble-pipeline.mjs
import { Context, functionKind, moduleKind, parseModule, printModule } from '@syclkit/ir';
import { createRegistry, formatDiagnostics } from '@syclkit/pass-manager';
import { syclPropagateAspectsUsage } from '@syclkit/aspect-propagation';
import { conditionalCallOnDevicePass } from '@syclkit/device-if';
import { computeImageProperties, computeImageRequirements, splitModule } from '@syclkit/post-link';
import { ContainerReader, ContainerWriter, deviceImage } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget } from '@syclkit/runtime';

// 1. Device IR of one translation unit: two kernels; `scale` reaches a double through a helper.
const source = `target triple = "spir64-unknown-unknown"

define weak_odr spir_kernel void @_ZTS5Scale(ptr addrspace(1) %p) #0 {
  %v = load float, ptr addrspace(1) %p, align 4
  %r = call spir_func float @twice(float %v)
  store float %r, ptr addrspace(1) %p, align 4
  ret void
}

define weak_odr spir_kernel void @_ZTS4Fill(ptr addrspace(1) %p) #0 {
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define linkonce_odr spir_func float @twice(float %x) {
  %d = fpext float %x to double
  %m = fmul double %d, 2.0
  %f = fptrunc double %m to float
  ret float %f
}

attributes #0 = { "sycl-module-id"="app.cpp" }

!sycl_aspects = !{!0, !1}
!0 = !{!"fp16", i32 5}
!1 = !{!"fp64", i32 6}
`;
const module = parseModule(source, { filename: 'app.ll', context: new Context() });

// 2. A registry (one line per pass, presets are plain pipeline text) and a pipeline from text.
const registry = createRegistry({
  unitKinds: [moduleKind, functionKind],
  passes: [conditionalCallOnDevicePass, syclPropagateAspectsUsage],
  presets: { 'device-front': 'sycl-conditional-call-on-device,sycl-propagate-aspects-usage' },
});
const pipeline = registry.parse('device-front', { source: 'example' });
console.log('pipeline:', registry.print(pipeline));
const result = registry.build(pipeline).run(module, { file: 'app.ll' });
process.stdout.write(formatDiagnostics(result.diagnostics)); // nothing to report here

// 3. Split with the design's rule (kernels with different requirements never share an image),
//    and turn each image into a device image with its `SYCL/device requirements`.
const writer = ContainerWriter.toMemory();
for (const image of splitModule(module, { mode: 'none', policy: 'design' })) {
  const requirements = computeImageRequirements(image.module, image.entryPoints);
  const properties = computeImageProperties({ module: image.module, entryPoints: image.entryPoints, esimd: image.esimd, requirements });
  const entries = image.entryPoints.map((fn) => fn.name);
  console.log(`image ${image.id}: ${entries.join(', ')} needs ${requirements.aspects.map((a) => a.name).join(', ') || 'nothing optional'}`);
  writer.addImage(deviceImage({ name: `app_${image.id}`, target: 'spir64', image: Buffer.from(printModule(image.module), 'latin1'), entries, properties }));
}
writer.finish();

// 4. The runtime: register the fat binary and submit each kernel to two simulated devices.
const runtime = new Runtime();
runtime.registerFatBinary(ContainerReader.fromBytes(writer.bytes(), { fileName: 'app.fatbin' }));
for (const device of [deviceFromTarget('intel_gpu_pvc'), deviceFromTarget('intel_gpu_dg1')]) {
  for (const kernel of ['_ZTS5Scale', '_ZTS4Fill']) {
    try {
      const launch = runtime.queue(device).parallelFor(kernel, [64]);
      console.log(`${kernel} on ${device.name}: ran image ${launch.image}`);
    } catch (error) {
      if (!(error instanceof SyclError)) throw error;
      console.log(`${kernel} on ${device.name}: ${error.render()}`);
    }
  }
}
