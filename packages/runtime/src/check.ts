/**
 * The check that runs when a kernel is submitted, before anything is built. Order and messages:
 *
 * 0. `fixed_target` (design only; intel/llvm does not check it) — the design's message;
 * 1. aspects; 2. joint_matrix; 3. joint_matrix_mad; 4. required work-group size (overflow,
 *    dimensions against the submitted range → errc.nd_range, total against max_work_group_size,
 *    each dimension against max_work_item_sizes); 5. required sub-group size — intel/llvm's
 *    `checkDevSupportDeviceRequirements` order and texts;
 * 6. a local size that differs from the required work-group size → errc.nd_range, with the text
 *    intel/llvm's enqueue gives (upstream checks it after building; syclkit before).
 */
import { builtinAspectTable, type AspectTable } from '@syclkit/device-config';
import type { Device, MatrixCombination } from './device.js';
import { SyclError, errc } from './errors.js';
import { formatSizes } from './ranges.js';
import type { KernelRequirements } from './requirements.js';

/** What was submitted: its dimensions (0: unknown) and the local size of an nd_range. */
export interface SubmissionShape {
  readonly dims: 0 | 1 | 2 | 3;
  readonly local?: readonly number[];
}

export interface CheckOptions {
  /** Aspect names for messages, and target names of `fixed_target` values (default: built-in table). */
  readonly aspectTable?: AspectTable;
  /** `design` (default) checks `fixed_target`; `intel-llvm` does not, as the real runtime. */
  readonly semantics?: 'design' | 'intel-llvm';
  /** What was submitted (default: dimensions unknown, no local size). */
  readonly submission?: SubmissionShape;
}

const UINT64_MAX = (1n << 64n) - 1n;

/** The name of a fixed_target value: the first target name the table has for it, or the number. */
function fixedTargetName(table: AspectTable, value: number): string {
  return table.namesOf(value)[0] ?? String(value);
}

/** Whether the device is one of the targets a `fixed_target` list names (through the aspect table). */
export function deviceInFixedTargets(device: Device, values: readonly number[], table: AspectTable): boolean {
  const names = new Set(device.targetNames());
  return values.some((value) => table.namesOf(value).some((name) => names.has(name)));
}

/**
 * The first reason `device` cannot run a kernel with these requirements, as the SyclError the
 * submit call throws; undefined when it can.
 */
export function checkKernelRequirements(requirements: KernelRequirements, device: Device, options: CheckOptions = {}): SyclError | undefined {
  const table = options.aspectTable ?? builtinAspectTable;
  const submission = options.submission ?? { dims: 0 };

  if ((options.semantics ?? 'design') === 'design') {
    for (const targets of requirements.fixedTargets) {
      if (!deviceInFixedTargets(device, targets, table)) {
        const list = targets.map((value) => fixedTargetName(table, value)).join(',');
        return new SyclError(errc.kernel_not_supported, `Kernel was compiled with '-fsycl-fixed-targets=${list}' but was submitted to a different device.`);
      }
    }
  }

  for (const aspect of requirements.aspects) {
    if (device.has(aspect)) continue;
    const name = table.nameOf(aspect);
    return new SyclError(errc.kernel_not_supported, name === undefined ? `Unknown aspect ${aspect}` : `Required aspect ${name} is not supported on the device`);
  }

  const matrixChecked = device.backend !== 'ext_oneapi_cuda' && device.backend !== 'ext_oneapi_hip';
  if (matrixChecked) {
    for (const text of requirements.jointMatrix) {
      const problem = checkJointMatrix(text, device.matrixCombinations);
      if (problem !== undefined) return new SyclError(errc.kernel_not_supported, problem);
    }
    for (const text of requirements.jointMatrixMad) {
      const problem = checkJointMatrixMad(text, device.matrixCombinations);
      if (problem !== undefined) return new SyclError(errc.kernel_not_supported, problem);
    }
  }

  for (const { sizes } of requirements.workGroupSizes) {
    let total = 1n;
    for (const size of sizes) {
      total *= size;
      if (total > UINT64_MAX) {
        return new SyclError(errc.kernel_not_supported, "Required work-group size is not supported (total number of work-items requested can't fit into size_t)");
      }
    }
    if (submission.dims !== 0 && submission.dims !== sizes.length) {
      return new SyclError(errc.nd_range, "The local size dimension of submitted nd_range doesn't match the required work-group size dimension");
    }
    if (total > BigInt(device.maxWorkGroupSize)) {
      return new SyclError(errc.kernel_not_supported, `Required work-group size ${total} is not supported on the device`);
    }
    // max_work_item_sizes<N> are the last N of the three; the required sizes are compared in
    // reverse index order, as upstream does.
    const limits = device.maxWorkItemSizes.slice(3 - sizes.length);
    for (let i = 0; i < sizes.length; i++) {
      if (sizes[i]! > BigInt(limits[sizes.length - 1 - i]!)) {
        return new SyclError(errc.kernel_not_supported, `Required work-group size ${sizes[i]} is not supported`);
      }
    }
  }

  for (const size of requirements.subGroupSizes) {
    if (!device.supportsSubGroupSize(size)) return new SyclError(errc.kernel_not_supported, `Sub-group size ${size} is not supported on the device`);
  }

  if (submission.local !== undefined) {
    for (const { sizes } of requirements.workGroupSizes) {
      if (sizes.length === submission.local.length && sizes.some((size, i) => size !== BigInt(submission.local![i]!))) {
        return new SyclError(
          errc.nd_range,
          `The specified local size ${formatSizes(submission.local)} doesn't match the required work-group size specified in the program source ${formatSizes(sizes)}`,
        );
      }
    }
  }
  return undefined;
}

const MATRIX_TYPES = new Set(['bf16', 'fp16', 'tf32', 'fp32', 'fp64', 'sint8', 'sint16', 'sint32', 'sint64', 'uint8', 'uint16', 'uint32', 'uint64']);

/** `matrix_type::fp32` → `fp32`; undefined for a type the extension does not define. */
function matrixType(text: string): string | undefined {
  const name = text.startsWith('matrix_type::') ? text.slice('matrix_type::'.length) : text;
  return MATRIX_TYPES.has(name) ? name : undefined;
}

function sizeFits(user: number, exact: number, max: number): boolean {
  return exact !== 0 ? user === exact : user <= max;
}

function integer(text: string | undefined): number {
  const value = Number.parseInt(text ?? '', 10);
  return Number.isNaN(value) ? 0 : value;
}

/** The message for the first `type,use,rows,cols` item no combination supports. */
export function checkJointMatrix(text: string, combinations: readonly MatrixCombination[]): string | undefined {
  if (combinations.length === 0) return 'no matrix hardware on the target device, joint_matrix is not supported';
  for (const item of text.split(';')) {
    if (item === '') continue;
    const [typeText = '', use = '', rowsText, colsText] = item.split(',');
    const rows = integer(rowsText);
    const cols = integer(colsText);
    const type = matrixType(typeText);
    const useName = use.startsWith('use::') ? use.slice('use::'.length) : use;
    const supported = combinations.some((c) => {
      if (type === undefined) return false;
      const fits = (t: string, maxR: number, maxC: number, r: number, cc: number) => type === t && sizeFits(rows, r, maxR) && sizeFits(cols, cc, maxC);
      switch (useName) {
        case 'a':
          return fits(c.atype, c.maxMsize, c.maxKsize, c.msize, c.ksize);
        case 'b':
          return fits(c.btype, c.maxKsize, c.maxNsize, c.ksize, c.nsize);
        case 'accumulator':
          return fits(c.ctype, c.maxMsize, c.maxNsize, c.msize, c.nsize) || fits(c.dtype, c.maxMsize, c.maxNsize, c.msize, c.nsize);
        default:
          return false;
      }
    });
    if (!supported) return `joint_matrix with parameters ${typeText}, ${use}, Rows=${rows}, Cols=${cols} is not supported on this device`;
  }
  return undefined;
}

/** The message for the first `typeA,typeB,typeC,typeD,M,K,N` item no combination supports. */
export function checkJointMatrixMad(text: string, combinations: readonly MatrixCombination[]): string | undefined {
  if (combinations.length === 0) return 'no matrix hardware on the target device, joint_matrix_mad is not supported';
  for (const item of text.split(';')) {
    if (item === '') continue;
    const [a = '', b = '', c = '', d = '', mText, kText, nText] = item.split(',');
    const [m, k, n] = [integer(mText), integer(kText), integer(nText)];
    const types = [a, b, c, d].map(matrixType);
    const supported =
      types.every((t) => t !== undefined) &&
      combinations.some(
        (combo) =>
          types[0] === combo.atype &&
          types[1] === combo.btype &&
          types[2] === combo.ctype &&
          types[3] === combo.dtype &&
          sizeFits(m, combo.msize, combo.maxMsize) &&
          sizeFits(k, combo.ksize, combo.maxKsize) &&
          sizeFits(n, combo.nsize, combo.maxNsize),
      );
    if (!supported) {
      return `joint_matrix_mad function with parameters atype=${a}, btype=${b}, ctype=${c}, dtype=${d}, M=${m}, K=${k}, N=${n} is not supported on this device`;
    }
  }
  return undefined;
}
