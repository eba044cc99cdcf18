/**
 * The kernel × device compatibility matrix of a fat binary, computed by the runtime itself
 * (`@syclkit/runtime`): for each pair, the bundle and image the runtime would pick, then the
 * submission check (`Runtime.checkKernel`: the exact `kernel_not_supported` / `nd_range` /
 * `runtime` error a `parallel_for` would throw), then a build with the simulated JIT compiler
 * (what speculative compilation of the kernel's image would do on that device).
 *
 * Several binaries (an application and the device libraries it imports from) are registered
 * together, as their host programs would register them: a kernel's imported functions resolve to
 * the libraries' images, whose requirements count in the check and whose code is built with it.
 */
import { DeviceConfig } from '@syclkit/device-config';
import { ADD_ON_IMAGE_SET, ContainerReader } from '@syclkit/offload-wrapper';
import { Runtime, SyclError, deviceFromTarget, kernelEntries, ndRange, type Device, type KernelResolution } from '@syclkit/runtime';

export interface MatrixCell {
  readonly kernel: string;
  readonly device: string;
  readonly ok: boolean;
  /** Where the kernel runs from on the device (absent when no image fits). */
  readonly bundle?: string;
  readonly image?: string;
  readonly match?: string;
  /** The `sycl::errc` and `what()` of the refusal. */
  readonly errc?: string;
  readonly message?: string;
  /** Which step refused: the submission check, or the JIT build. */
  readonly stage?: 'check' | 'build';
}

export interface CompatibilityMatrix {
  readonly kernels: readonly string[];
  readonly devices: readonly Device[];
  readonly cells: readonly MatrixCell[];
}

/** Every device the built-in configuration describes (targets with an entry and simulated traits). */
export function builtinDevices(config: DeviceConfig = DeviceConfig.builtin()): Device[] {
  const out: Device[] = [];
  for (const target of config.describeAll()) {
    if (target.simulated === undefined || target.entry === undefined || !target.selectable) continue;
    try {
      out.push(deviceFromTarget(target.name, config));
    } catch {
      // a target that describes no single device
    }
  }
  return out;
}

/**
 * Kernels of containers, in the order their first image lists them. Entries of device_if add-on
 * images (the actions they export) and exported device functions (`SYCL/exported symbols`, a
 * device library's functions) are not kernels.
 */
export function containerKernels(readers: ContainerReader | readonly ContainerReader[]): string[] {
  const out = new Set<string>();
  for (const reader of Array.isArray(readers) ? readers : [readers]) {
    for (const bundle of reader.bundles) {
      for (const image of bundle.images) {
        if (image.properties.getSet(ADD_ON_IMAGE_SET) !== undefined) continue;
        for (const entry of kernelEntries(image)) out.add(entry);
      }
    }
  }
  return [...out];
}

function refusal(kernel: string, device: Device, error: unknown, stage: 'check' | 'build', where?: KernelResolution): MatrixCell {
  if (!(error instanceof SyclError)) throw error;
  return {
    kernel,
    device: device.name,
    ok: false,
    ...(where === undefined ? {} : { bundle: where.bundle, image: where.image, match: where.match }),
    errc: error.code,
    message: error.message,
    stage,
  };
}

/**
 * Runs the runtime's check (and a JIT build) for every kernel on every device; with several
 * containers, all are registered (in this order) and every one's kernels are checked.
 */
export function compatibilityMatrix(
  readers: ContainerReader | readonly ContainerReader[],
  devices: readonly Device[],
  options: { config?: DeviceConfig; build?: boolean } = {},
): CompatibilityMatrix {
  const runtime = new Runtime({ config: options.config ?? DeviceConfig.builtin() });
  const all: readonly ContainerReader[] = Array.isArray(readers) ? readers : [readers];
  for (const reader of all) runtime.registerFatBinary(reader);
  const kernels = containerKernels(all);
  const cells: MatrixCell[] = [];
  for (const device of devices) {
    for (const kernel of kernels) {
      let where: KernelResolution;
      try {
        where = runtime.resolveKernel(kernel, device);
      } catch (error) {
        cells.push(refusal(kernel, device, error, 'check'));
        continue;
      }
      try {
        runtime.checkKernel(kernel, device);
      } catch (error) {
        cells.push(refusal(kernel, device, error, 'check', where));
        continue;
      }
      if (options.build !== false) {
        // A launch shaped like the kernel's required work-group size (single_task without one).
        const wg = where.requirements.workGroupSizes[0]?.sizes.map(Number);
        try {
          runtime.launch(kernel, device, wg === undefined ? undefined : ndRange(wg, wg));
        } catch (error) {
          cells.push(refusal(kernel, device, error, 'build', where));
          continue;
        }
      }
      cells.push({ kernel, device: device.name, ok: true, bundle: where.bundle, image: where.image, match: where.match });
    }
    // Programs are built per device: the next device can use none of them, so memory stays at one device's.
    runtime.programCache.clear();
  }
  return { kernels, devices, cells };
}

const cellIndexes = new WeakMap<CompatibilityMatrix, Map<string, MatrixCell>>();

/** The cell of a pair (through an index of the matrix's cells, made on first use). */
export function cellOf(matrix: CompatibilityMatrix, kernel: string, device: string): MatrixCell | undefined {
  let index = cellIndexes.get(matrix);
  if (index === undefined) {
    index = new Map();
    for (const cell of matrix.cells) {
      const key = `${cell.device}\u0000${cell.kernel}`;
      if (!index.has(key)) index.set(key, cell);
    }
    cellIndexes.set(matrix, index);
  }
  return index.get(`${device}\u0000${kernel}`);
}

/**
 * The matrix as text: kernels numbered K1… in a legend, one row per device, `ok` or a footnote
 * number per cell; each footnote is one distinct refusal, with the runtime's exact message. Pairs
 * for which the binary has no image the device can take at all are `--`, with one example of the
 * runtime's message (`--json` has every message).
 */
export function formatMatrix(matrix: CompatibilityMatrix, file: string): string {
  const { kernels, devices } = matrix;
  const lines: string[] = [`${file}: ${kernels.length} kernel${kernels.length === 1 ? '' : 's'} x ${devices.length} device${devices.length === 1 ? '' : 's'}`, ''];
  if (kernels.length === 0) {
    lines.push('no kernels to check (a device library only exports functions; check the application that imports them)');
    return lines.join('\n') + '\n';
  }
  kernels.forEach((k, i) => lines.push(`  K${i + 1}  ${k}`));
  lines.push('');
  const notes: string[] = [];
  const noteNumbers = new Map<string, number>();
  let noImage: MatrixCell | undefined;
  const noteOf = (cell: MatrixCell): string => {
    // "No device image of kernel K is compatible with device D; ...": one legend entry for all.
    if (isNoImage(cell)) {
      noImage ??= cell;
      return '--';
    }
    const text = `${cell.errc}: ${cell.message}`;
    let at = noteNumbers.get(text);
    if (at === undefined) noteNumbers.set(text, (at = notes.push(text) - 1));
    return `[${at + 1}]`;
  };
  const header = ['device', ...kernels.map((_, i) => `K${i + 1}`)];
  const rows = devices.map((d) => [
    d.name,
    ...kernels.map((k) => {
      const cell = cellOf(matrix, k, d.name)!;
      return cell.ok ? 'ok' : noteOf(cell);
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const render = (cols: readonly string[]): string => cols.map((c, i) => (i === cols.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  lines.push(render(header), ...rows.map(render), '');
  const refusals = matrix.cells.filter((c) => !c.ok).length;
  lines.push(`${matrix.cells.length - refusals} of ${matrix.cells.length} pairs can run${refusals === 0 ? '' : '; why the others cannot:'}`);
  notes.forEach((text, i) => lines.push(`  [${i + 1}] ${text}`));
  if (noImage !== undefined) {
    lines.push(`  --  no image of the binary can run on the device (it has no bundle the device takes); the runtime says, e.g.:`);
    lines.push(`      ${noImage.errc}: ${noImage.message}`);
  }
  return lines.join('\n') + '\n';
}

/** The runtime found no image of the kernel for the device's backend and type at all. */
function isNoImage(cell: MatrixCell): boolean {
  return cell.errc === 'runtime' && cell.bundle === undefined && /^No device image of kernel /.test(cell.message ?? '');
}

/** The JSON form (stable key order); `file` is the first container, `files` all of them. */
export function matrixJSON(matrix: CompatibilityMatrix, files: string | readonly string[]): unknown {
  const list = typeof files === 'string' ? [files] : files;
  return {
    file: list[0] ?? null,
    files: list,
    kernels: matrix.kernels,
    devices: matrix.devices.map((d) => ({ name: d.name, target: d.target ?? null, deviceType: d.deviceType, backend: d.backend })),
    results: matrix.cells.map((c) => ({
      kernel: c.kernel,
      device: c.device,
      ok: c.ok,
      bundle: c.bundle ?? null,
      image: c.image ?? null,
      match: c.match ?? null,
      ...(c.ok ? {} : { errc: c.errc, message: c.message, stage: c.stage }),
    })),
  };
}
