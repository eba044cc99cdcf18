/**
 * Separate compilation and linking (CompilerAndRuntimeDesign.md, "Separate Compilation and
 * Linking", "Fat binary creation details", "Device Link", "Device Link during compilation"):
 *
 * - `compileFatObject` (`syclkit compile -c`): a translation unit's device IR into a fat object,
 *   the host object (given, or an empty one from LLVM's llc) with the IR in a
 *   `__CLANG_OFFLOAD_BUNDLE__sycl-<triple>` section and its symbols in `.tgtsym`. With
 *   `-fno-sycl-rdc` the unit's device code is linked alone, and the bundle holds its wrapper object.
 * - `linkProgram` (`syclkit link`): unbundles fat objects and the archive members the program
 *   needs (static device libraries), checks that every symbol the device code uses is defined and,
 *   at the final link, that every kernel the host refers to has a device image; compiles the device
 *   code with the compile driver (`compileProgram`); compiles the wrapper module with llc; links
 *   host objects, wrapper objects and the registration stub into an executable with the system C
 *   compiler. `-fsycl-link` stops after the device code: a fat object holding the wrapper object,
 *   which a later final link uses without linking its device code again.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { ContainerReader, ContainerWriter, inspectContainer, wrapperModuleText, type BinaryDescriptor, type DeviceImage, type InspectReport } from '@syclkit/offload-wrapper';
import { DeviceLinkError, readProgramDescriptors, selectArchiveMembers, writeFatObject, type LinkInput, type MemberChoice, type ProgramDescriptor } from '@syclkit/objects';
import { CliError } from '../command.js';
import { writeFileAtomic } from '../io.js';
import { findLlvmTool } from '../llvm-tools.js';
import { checkOutputPath, compileProgram, type CompileOptions, type CompileResult } from './compile.js';
import type { DiagnosticLog } from './diagnostics.js';
import { DEFAULT_HOST_TRIPLE, LINKED_IMAGE_BUNDLE, SYCL_KIND, deviceUnit, readLinkInput, type DeviceUnit, type LinkInputFile, type ObjectInput } from './link-inputs.js';
import { DEFAULT_MAIN_SOURCE, REGISTRATION_STUB_SOURCE } from './registration.js';

/** Options of the device compile, as `compile` takes them (units and output come from the link). */
export type DeviceCompileOptions = Omit<CompileOptions, 'units' | 'output' | 'name' | 'wrapperIR'>;

/** Several link errors at once: each line names the file and what is missing. */
export class LinkErrors extends Error {
  override readonly name = 'LinkErrors';
  constructor(readonly errors: readonly DeviceLinkError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }

  render(): string {
    return this.errors.map((e) => e.render()).join('\n');
  }
}

function fail(errors: DeviceLinkError[]): void {
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new LinkErrors(errors);
}

function stemOf(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

/** Runs a tool; a failure is a CliError with the tool's stderr. */
function run(tool: string, args: readonly string[], input: Uint8Array | string | undefined, why: string): Buffer {
  try {
    return execFileSync(tool, args, { input: input ?? '', maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: Buffer; status?: number };
    if (e.code === 'ENOENT') throw new CliError(`${why} needs '${tool}', which is not installed`);
    throw new CliError(`${why}: ${basename(tool)} failed${e.status === undefined ? '' : ` (exit status ${e.status})`}: ${e.stderr?.toString().trim() || e.message}`);
  }
}

function llc(): string {
  const tool = findLlvmTool('llc');
  if (tool === undefined) throw new CliError("making host objects needs LLVM's 'llc' (apt-get install -y llvm-16; or set SYCLKIT_LLVM_BIN)");
  return tool;
}

/** The C compiler that links the executable: `$SYCLKIT_CC`, else `cc`. */
export function cCompiler(): string {
  return process.env['SYCLKIT_CC'] || 'cc';
}

/** An empty relocatable object for the host (what `-c` bundles into when no host object is given). */
export function emptyHostObject(hostTriple: string): Uint8Array {
  return new Uint8Array(run(llc(), ['-filetype=obj', '-o', '-'], `target triple = "${hostTriple}"\n`, 'making an empty host object'));
}

/** The wrapper object of a descriptor: clang-offload-wrapper's module, compiled by llc. */
export function wrapperObject(descriptor: BinaryDescriptor, hostTriple: string): Uint8Array {
  // The generated text as is: llc reads it the same, and printing it canonically (emitWrapperIR)
  // would parse and print every image's bytes once more.
  const ir = wrapperModuleText(descriptor, { host: hostTriple });
  return new Uint8Array(run(llc(), ['-filetype=obj', '-relocation-model=pic', '-o', '-'], ir, 'compiling the wrapper module'));
}

/** The bundle ID of a device module: `sycl-` and its target triple. */
export function deviceBundleId(text: string, file: string): string {
  const triple = /^target triple = "([^"]*)"/m.exec(text)?.[1];
  if (triple === undefined || triple === '') throw new DeviceLinkError(file, "the device IR has no 'target triple'; the fat object's bundle is named after it");
  return `${SYCL_KIND}-${triple}`;
}

export interface CompileFatObjectOptions {
  /** The device IR file (`.ll` or `.bc`) and, when read already, its bytes. */
  readonly input: string;
  readonly bytes?: Uint8Array;
  /** The fat object to write. */
  readonly output: string;
  /** The host object of the translation unit (`-host-object`); default an empty one. */
  readonly hostObject?: string;
  readonly hostTriple?: string;
  /** `-fno-sycl-rdc`: link the unit's device code alone now; the bundle holds its wrapper object. */
  readonly noRdc?: boolean;
  readonly device?: DeviceCompileOptions;
}

export interface FatObjectResult {
  readonly output: string;
  /** The compile of the unit's device code (`-fno-sycl-rdc` only). */
  readonly compile?: CompileResult;
}

/** `syclkit compile -c`: see the module comment. Nothing is written when there is an error. */
export async function compileFatObject(options: CompileFatObjectOptions): Promise<FatObjectResult> {
  checkOutputPath(options.output, 'the fat object');
  const hostTriple = options.hostTriple ?? DEFAULT_HOST_TRIPLE;
  const bytes = options.bytes ?? new Uint8Array(readFileSync(options.input));
  const unit = deviceUnit(options.input, bytes);
  let host: Uint8Array;
  if (options.hostObject !== undefined) {
    const input = readLinkInput(options.hostObject, hostTriple);
    if (input.kind !== 'object') throw new DeviceLinkError(options.hostObject, '-host-object takes a relocatable host object (.o)');
    if (input.object.fat.bundles.length > 0) throw new DeviceLinkError(options.hostObject, '-host-object is a fat object already; give the plain host object');
    host = input.object.bytes;
  } else {
    host = emptyHostObject(hostTriple);
  }
  const hostId = `host-${hostTriple}`;
  let fat: Uint8Array;
  let compile: CompileResult | undefined;
  if (options.noRdc === true) {
    checkSelfContained([unit], true);
    compile = await compileProgram({ ...options.device, split: options.device?.split ?? 'per_source', units: [{ file: unit.file, text: unit.text }], name: stemOf(options.output) });
    if (!compile.ok) return { output: options.output, compile };
    const descriptor = ContainerReader.fromBytes(compile.container!).readDescriptor();
    fat = writeFatObject({ hostObject: host, hostId, bundles: [{ id: LINKED_IMAGE_BUNDLE, data: wrapperObject(descriptor, hostTriple) }], fileName: options.output });
  } else {
    const id = deviceBundleId(unit.text, options.input);
    fat = writeFatObject({ hostObject: host, hostId, bundles: [{ id, data: bytes }], targetSymbols: new Map([[id, unit.listed]]), fileName: options.output });
  }
  writeFileAtomic(options.output, fat);
  return { output: options.output, ...(compile === undefined ? {} : { compile }) };
}

/**
 * Every symbol the device code uses is defined by some unit (`alone`: by the unit itself, as
 * `-fno-sycl-rdc` links each unit alone); otherwise the errors name the unit and the symbol.
 */
export function checkSelfContained(units: readonly DeviceUnit[], alone: boolean): void {
  const definedBy = new Map<string, string>();
  for (const unit of units) for (const symbol of unit.defines) if (!definedBy.has(symbol)) definedBy.set(symbol, unit.file);
  const errors: DeviceLinkError[] = [];
  for (const unit of units) {
    const own = new Set(unit.defines);
    for (const [symbol, user] of unit.needs) {
      if (own.has(symbol)) continue;
      const elsewhere = definedBy.get(symbol);
      if (alone) {
        errors.push(
          new DeviceLinkError(
            unit.file,
            elsewhere === undefined
              ? `'${symbol}' (used by '${user}') is defined by no translation unit; with -fno-sycl-rdc each unit's device code is linked alone`
              : `'${user}' calls SYCL_EXTERNAL '${symbol}', defined in another translation unit (${elsewhere}); -fno-sycl-rdc links each unit's device code alone, so device code cannot cross units`,
          ),
        );
      } else if (elsewhere === undefined) {
        errors.push(new DeviceLinkError(unit.file, `device code uses '${symbol}' (in '${user}'), which no input defines`));
      }
    }
  }
  fail(errors);
}

export interface LinkOptions {
  /** Objects, static libraries and device IR files, in command-line order. */
  readonly inputs: readonly string[];
  readonly output: string;
  /** `-fsycl-link`: stop after the device link; the output is a fat object holding the images. */
  readonly deviceLinkOnly?: boolean;
  /** `-fno-sycl-rdc`: link each translation unit's device code alone. */
  readonly noRdc?: boolean;
  readonly hostTriple?: string;
  readonly device?: DeviceCompileOptions;
  /** Extra arguments for the host link (`-Wl,...`, `-l...`). */
  readonly linkerArgs?: readonly string[];
  readonly onStep?: (step: string) => void;
}

export interface LinkResult {
  readonly ok: boolean;
  readonly output: string;
  /** The device compile(s), when device code was linked now. */
  readonly compiles: readonly CompileResult[];
  readonly diagnostics: readonly DiagnosticLog[];
  /** Archive members linked, with the symbol that pulled each in. */
  readonly members: readonly { readonly file: string; readonly because: string }[];
  /** What the program registers (every descriptor, merged), as `syclkit inspect` reads it. */
  readonly report?: InspectReport;
  /** Whether `link` supplied `main`. */
  readonly suppliedMain: boolean;
}

interface Candidate extends LinkInput {
  /** The object, or undefined for a device IR file given directly. */
  readonly object: ObjectInput | undefined;
}

const DEVICE = 'device:';
const HOST = 'host:';

function candidateOf(object: ObjectInput, units: Map<ObjectInput, DeviceUnit[]>): Candidate {
  const listed = object.listedDeviceSymbols;
  let parsed: DeviceUnit[] | undefined;
  const device = (): DeviceUnit[] => {
    parsed ??= object.deviceBundles.map((b, i) => deviceUnit(object.deviceBundles.length === 1 ? object.file : `${object.file}[${i}]`, b.data));
    units.set(object, parsed);
    return parsed;
  };
  const imageKernels = object.imageObjects.flatMap((image) => readProgramDescriptors(image, object.file).flatMap((d) => d.images.flatMap((img) => img.entries)));
  const deviceDefines = listed ?? device().flatMap((u) => u.defines);
  return {
    object,
    defines: [...deviceDefines.map((s) => DEVICE + s), ...imageKernels.map((s) => DEVICE + s), ...object.host.defines.map((s) => HOST + s)],
    get needs(): string[] {
      return [...device().flatMap((u) => [...u.needs.keys()].map((s) => DEVICE + s)), ...object.host.needs.map((s) => HOST + s), ...object.host.kernels.map((k) => DEVICE + k)];
    },
  };
}

/** The device code of a link's inputs: units to compile now, images linked already, host objects. */
export interface ResolvedInputs {
  readonly files: readonly LinkInputFile[];
  /** Objects linked: direct inputs, then archive members in the order they were pulled in. */
  readonly objects: readonly ObjectInput[];
  readonly chosen: readonly MemberChoice<Candidate>[];
  /** Device IR to link now, in input order (archive members after the direct inputs). */
  readonly deviceUnits: readonly DeviceUnit[];
  /** Wrapper objects of device code linked already, and their descriptors. */
  readonly imageObjects: readonly { readonly file: string; readonly bytes: Uint8Array; readonly descriptors: readonly ProgramDescriptor[] }[];
  readonly members: readonly { readonly file: string; readonly because: string }[];
}

/**
 * Reads the inputs, pulls in the archive members the program needs, and makes the device link's
 * checks: every symbol the device code uses is defined (unless device code is linked dynamically);
 * with `checkKernels` (the final link), every kernel the host refers to has a device image.
 */
export function resolveInputs(
  inputs: readonly string[],
  options: { readonly hostTriple: string; readonly noRdc: boolean; readonly dynamic: boolean; readonly checkKernels: boolean },
): ResolvedInputs {
  const files: LinkInputFile[] = inputs.map((file) => readLinkInput(file, options.hostTriple));
  const units = new Map<ObjectInput, DeviceUnit[]>();
  const directUnits: DeviceUnit[] = [];
  const linked: Candidate[] = [];
  const archives: Candidate[][] = [];
  for (const input of files) {
    if (input.kind === 'ir') {
      const unit = deviceUnit(input.file, input.bytes);
      directUnits.push(unit);
      linked.push({ object: undefined, defines: unit.defines.map((s) => DEVICE + s), needs: [...unit.needs.keys()].map((s) => DEVICE + s) });
    } else if (input.kind === 'object') linked.push(candidateOf(input.object, units));
    else archives.push(input.members.map((m) => candidateOf(m, units)));
  }
  const chosen = selectArchiveMembers(linked, archives);
  const objects = [...linked.flatMap((c) => (c.object === undefined ? [] : [c.object])), ...chosen.map((c) => c.member.object!)];
  const deviceUnits: DeviceUnit[] = [];
  for (const input of files) {
    if (input.kind === 'ir') deviceUnits.push(directUnits.shift()!);
    else if (input.kind === 'object') deviceUnits.push(...unitsOf(input.object, units));
  }
  for (const choice of chosen) deviceUnits.push(...unitsOf(choice.member.object!, units));
  const imageObjects = objects.flatMap((o) => o.imageObjects.map((bytes) => ({ file: o.file, bytes, descriptors: readProgramDescriptors(bytes, o.file) })));

  // Device link check 1: every symbol the kernels use is defined.
  if (!options.dynamic || options.noRdc) checkSelfContained(deviceUnits, options.noRdc);

  // Device link check 2 (final link): every kernel the host refers to has a device image.
  if (options.checkKernels) {
    const kernels = new Set<string>([...deviceUnits.flatMap((u) => u.kernels), ...imageObjects.flatMap(({ descriptors }) => descriptors.flatMap((d) => d.images.flatMap((i) => i.entries)))]);
    const errors: DeviceLinkError[] = [];
    for (const object of objects) {
      for (const kernel of object.host.kernels) {
        if (!kernels.has(kernel)) errors.push(new DeviceLinkError(object.file, `the host code refers to kernel '${kernel}' (through sycl::_V1::detail::KernelInfo), but no device image defines it; link the object or library with its device code`));
      }
    }
    fail(errors);
  }
  const members = chosen.map((c) => ({ file: c.member.object!.file, because: c.because.slice(c.because.indexOf(':') + 1) }));
  return { files, objects, chosen, deviceUnits, imageObjects, members };
}

/** `syclkit link`: see the module comment. Nothing is written when there is an error. */
export async function linkProgram(options: LinkOptions): Promise<LinkResult> {
  const step = options.onStep ?? (() => {});
  const hostTriple = options.hostTriple ?? DEFAULT_HOST_TRIPLE;
  checkOutputPath(options.output, options.deviceLinkOnly === true ? 'the fat object' : 'the executable');
  if (options.inputs.length === 0) throw new CliError('no input files');
  step('reading inputs and choosing archive members');
  const dynamic = options.device?.allowDeviceImageDependencies === true || options.device?.deviceLibrary === true;
  const { files, objects, chosen, deviceUnits, imageObjects, members } = resolveInputs(options.inputs, {
    hostTriple,
    noRdc: options.noRdc === true,
    dynamic,
    checkKernels: options.deviceLinkOnly !== true,
  });
  // The device code.
  const compiles: CompileResult[] = [];
  const stem = stemOf(options.output);
  const descriptors: BinaryDescriptor[] = [];
  const groups = options.noRdc === true ? deviceUnits.map((u) => [u]) : deviceUnits.length > 0 ? [deviceUnits] : [];
  for (const [i, group] of groups.entries()) {
    step(`compiling device code${groups.length > 1 ? ` of ${group[0]!.file}` : ''}`);
    const name = groups.length > 1 ? `${stem}_${i}` : stem;
    const compile = await compileProgram({
      ...options.device,
      ...(options.noRdc === true ? { split: options.device?.split ?? 'per_source' } : {}),
      units: group.map((u) => ({ file: u.file, text: u.text })),
      name,
    });
    compiles.push(compile);
    if (!compile.ok) return { ok: false, output: options.output, compiles, diagnostics: compiles.map((c) => c.diagnostics), members: [], suppliedMain: false };
    descriptors.push(ContainerReader.fromBytes(compile.container!).readDescriptor());
  }
  const descriptor = mergeBinaryDescriptors(descriptors);

  step('wrapping device images');
  const wrapper = descriptor.bundles.length > 0 ? wrapperObject(descriptor, hostTriple) : undefined;
  const report = reportOf([...imageObjects.flatMap((o) => o.descriptors.flatMap((d) => d.images)), ...descriptor.bundles.flatMap((b) => b.images)], stem);

  if (options.deviceLinkOnly === true) {
    if (imageObjects.length > 0) throw new DeviceLinkError(imageObjects[0]!.file, 'holds device images linked already (-fsycl-link or -fno-sycl-rdc -c); give it to the final link instead');
    if (wrapper === undefined) throw new CliError('-fsycl-link: the inputs hold no device code');
    writeFileAtomic(options.output, writeFatObject({ hostObject: emptyHostObject(hostTriple), hostId: `host-${hostTriple}`, bundles: [{ id: LINKED_IMAGE_BUNDLE, data: wrapper }], fileName: options.output }));
    return { ok: true, output: options.output, compiles, diagnostics: compiles.map((c) => c.diagnostics), members, report, suppliedMain: false };
  }

  step('linking the executable');
  const suppliedMain = !objects.some((o) => o.host.definesMain);
  const work = mkdtempSync(join(tmpdir(), 'syclkit-link-'));
  try {
    const args: string[] = [];
    for (const [i, input] of files.entries()) {
      if (input.kind === 'ir') continue;
      const path = input.kind === 'object' ? input.object.file : input.file;
      args.push(path);
      if (input.kind === 'object') {
        input.object.imageObjects.forEach((bytes, j) => {
          const extracted = join(work, `image_${i}_${j}.o`);
          writeFileSync(extracted, bytes);
          args.push(extracted);
        });
      }
    }
    // Linked images inside archive members: the host linker pulls the member, not its bundle.
    for (const choice of chosen) {
      choice.member.object!.imageObjects.forEach((bytes, j) => {
        const extracted = join(work, `member_image_${chosen.indexOf(choice)}_${j}.o`);
        writeFileSync(extracted, bytes);
        args.push(extracted);
      });
    }
    if (wrapper !== undefined) {
      writeFileSync(join(work, 'wrapper.o'), wrapper);
      args.push(join(work, 'wrapper.o'));
    }
    writeFileSync(join(work, 'syclkit_registration.c'), REGISTRATION_STUB_SOURCE);
    args.push(join(work, 'syclkit_registration.c'));
    if (suppliedMain) {
      writeFileSync(join(work, 'syclkit_main.c'), DEFAULT_MAIN_SOURCE);
      args.push(join(work, 'syclkit_main.c'));
    }
    const temp = join(work, 'a.out');
    run(cCompiler(), ['-o', temp, ...args, ...(options.linkerArgs ?? [])], undefined, 'linking the executable');
    writeFileAtomic(options.output, readFileSync(temp));
    chmodSync(options.output, statSync(temp).mode & 0o777);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { ok: true, output: options.output, compiles, diagnostics: compiles.map((c) => c.diagnostics), members, report, suppliedMain };
}

function unitsOf(object: ObjectInput, units: Map<ObjectInput, DeviceUnit[]>): DeviceUnit[] {
  const known = units.get(object);
  if (known !== undefined) return known;
  const parsed = object.deviceBundles.map((b, i) => deviceUnit(object.deviceBundles.length === 1 ? object.file : `${object.file}[${i}]`, b.data));
  units.set(object, parsed);
  return parsed;
}

/** Bundles of several descriptors merged by target, images in order. */
export function mergeBinaryDescriptors(descriptors: readonly BinaryDescriptor[]): BinaryDescriptor {
  const byTarget = new Map<string, BinaryDescriptor['bundles'][number]['images'][number][]>();
  for (const descriptor of descriptors) {
    for (const bundle of descriptor.bundles) {
      const list = byTarget.get(bundle.target) ?? [];
      list.push(...bundle.images);
      byTarget.set(bundle.target, list);
    }
  }
  return { bundles: [...byTarget].map(([target, images]) => ({ target, images })) };
}

/** What the program registers, as an inspect report (images named as the program's reader names them). */
function reportOf(images: readonly DeviceImage[], stem: string): InspectReport {
  const writer = ContainerWriter.toMemory();
  const perTarget = new Map<string, number>();
  for (const image of images) {
    const n = perTarget.get(image.target) ?? 0;
    perTarget.set(image.target, n + 1);
    writer.addImage({ ...image, name: `${stem}_${image.target}_${n}` });
  }
  writer.finish();
  const reader = ContainerReader.fromBytes(writer.bytes(), { fileName: stem });
  try {
    return inspectContainer(reader);
  } finally {
    reader.close();
  }
}
