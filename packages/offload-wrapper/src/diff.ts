import { builtinAspectTable, type AspectTable } from '@syclkit/device-config';
import { formatAspect, imageRequirements, type BundleReport, type ImageReport, type InspectReport } from './inspect.js';

/** A change to one image (matched by name within a bundle). */
export type ImageChange =
  | { readonly kind: 'appeared'; readonly kernels: readonly string[]; readonly empty: boolean }
  | { readonly kind: 'vanished'; readonly kernels: readonly string[]; readonly empty: boolean }
  | { readonly kind: 'format'; readonly before: string; readonly after: string }
  | { readonly kind: 'code'; readonly before: { readonly size: number; readonly crc32: string }; readonly after: { readonly size: number; readonly crc32: string } };

/**
 * A change to one kernel (an offload entry) within a bundle. Requirements belong to images; a
 * kernel has those of the images that hold it (aspects: their union).
 */
export type KernelChange =
  | { readonly kind: 'appeared'; readonly images: readonly string[] }
  | { readonly kind: 'vanished'; readonly images: readonly string[] }
  | { readonly kind: 'images'; readonly before: readonly string[]; readonly after: readonly string[] }
  | { readonly kind: 'aspect-gained'; readonly aspect: number }
  | { readonly kind: 'aspect-lost'; readonly aspect: number }
  | { readonly kind: 'sub-group-size'; readonly before: number | null; readonly after: number | null }
  | { readonly kind: 'work-group-size'; readonly before: readonly (number | string)[] | null; readonly after: readonly (number | string)[] | null }
  | { readonly kind: 'emptied' }
  | { readonly kind: 'unemptied' };

export interface BundleDiff {
  readonly target: string;
  readonly status: 'added' | 'removed' | 'changed';
  /** Image counts before and after (0 for an added or removed bundle's missing side). */
  readonly imagesBefore: number;
  readonly imagesAfter: number;
  readonly images: readonly { readonly name: string; readonly changes: readonly ImageChange[] }[];
  readonly kernels: readonly { readonly name: string; readonly changes: readonly KernelChange[] }[];
}

export interface ContainerDiff {
  readonly before: string;
  readonly after: string;
  readonly identical: boolean;
  /** Only bundles with a change. */
  readonly bundles: readonly BundleDiff[];
}

interface KernelView {
  readonly images: string[];
  readonly aspects: Set<number>;
  subGroup: number | null;
  workGroup: readonly (number | string)[] | null;
  empty: boolean;
}

function kernelsOf(bundle: BundleReport | undefined): Map<string, KernelView> {
  const kernels = new Map<string, KernelView>();
  for (const image of bundle?.images ?? []) {
    const requirements = imageRequirements(image);
    for (const kernel of image.kernels) {
      let view = kernels.get(kernel);
      if (view === undefined) {
        view = {
          images: [],
          aspects: new Set(),
          subGroup: requirements.reqdSubGroupSize ?? null,
          workGroup: requirements.reqdWorkGroupSize ?? null,
          empty: true,
        };
        kernels.set(kernel, view);
      }
      view.images.push(image.name);
      for (const aspect of requirements.aspects) view.aspects.add(aspect);
      view.empty &&= image.empty;
    }
  }
  return kernels;
}

function sameList<T>(a: readonly T[] | null, b: readonly T[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function diffBundle(target: string, before: BundleReport | undefined, after: BundleReport | undefined): BundleDiff | undefined {
  const status = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
  const imagesBefore = before?.images.length ?? 0;
  const imagesAfter = after?.images.length ?? 0;
  if (status !== 'changed') return { target, status, imagesBefore, imagesAfter, images: [], kernels: [] };

  const images: { name: string; changes: ImageChange[] }[] = [];
  const beforeImages = new Map<string, ImageReport>(before!.images.map((image) => [image.name, image]));
  const afterImages = new Map<string, ImageReport>(after!.images.map((image) => [image.name, image]));
  for (const image of after!.images) {
    const old = beforeImages.get(image.name);
    const changes: ImageChange[] = [];
    if (old === undefined) {
      changes.push({ kind: 'appeared', kernels: image.kernels, empty: image.empty });
    } else {
      if (old.format !== image.format && !old.empty && !image.empty) changes.push({ kind: 'format', before: old.format, after: image.format });
      if ((old.size !== image.size || old.crc32 !== image.crc32) && !old.empty && !image.empty) {
        changes.push({ kind: 'code', before: { size: old.size, crc32: old.crc32 }, after: { size: image.size, crc32: image.crc32 } });
      }
    }
    if (changes.length > 0) images.push({ name: image.name, changes });
  }
  for (const image of before!.images) {
    if (!afterImages.has(image.name)) images.push({ name: image.name, changes: [{ kind: 'vanished', kernels: image.kernels, empty: image.empty }] });
  }

  const kernels: { name: string; changes: KernelChange[] }[] = [];
  const oldKernels = kernelsOf(before);
  const newKernels = kernelsOf(after);
  for (const [name, now] of newKernels) {
    const was = oldKernels.get(name);
    const changes: KernelChange[] = [];
    if (was === undefined) {
      changes.push({ kind: 'appeared', images: now.images });
    } else {
      if (!sameList(was.images, now.images)) changes.push({ kind: 'images', before: was.images, after: now.images });
      for (const aspect of [...now.aspects].sort((a, b) => a - b)) if (!was.aspects.has(aspect)) changes.push({ kind: 'aspect-gained', aspect });
      for (const aspect of [...was.aspects].sort((a, b) => a - b)) if (!now.aspects.has(aspect)) changes.push({ kind: 'aspect-lost', aspect });
      if (was.subGroup !== now.subGroup) changes.push({ kind: 'sub-group-size', before: was.subGroup, after: now.subGroup });
      if (!sameList(was.workGroup, now.workGroup)) changes.push({ kind: 'work-group-size', before: was.workGroup, after: now.workGroup });
      if (!was.empty && now.empty) changes.push({ kind: 'emptied' });
      if (was.empty && !now.empty) changes.push({ kind: 'unemptied' });
    }
    if (changes.length > 0) kernels.push({ name, changes });
  }
  for (const [name, was] of oldKernels) {
    if (!newKernels.has(name)) kernels.push({ name, changes: [{ kind: 'vanished', images: was.images }] });
  }
  if (images.length === 0 && kernels.length === 0) return undefined;
  return { target, status, imagesBefore, imagesAfter, images, kernels };
}

/**
 * What changed between two builds: bundles added or removed; per bundle, images appearing,
 * vanishing or changing code, and kernels appearing, vanishing, moving between images, gaining or
 * losing aspects, changing their required sub-group or work-group size, or becoming empty (filtered
 * out for the target).
 */
export function diffReports(before: InspectReport, after: InspectReport): ContainerDiff {
  const beforeBundles = new Map(before.bundles.map((bundle) => [bundle.target, bundle]));
  const afterBundles = new Map(after.bundles.map((bundle) => [bundle.target, bundle]));
  const bundles: BundleDiff[] = [];
  for (const bundle of after.bundles) {
    const diff = diffBundle(bundle.target, beforeBundles.get(bundle.target), bundle);
    if (diff !== undefined) bundles.push(diff);
  }
  for (const bundle of before.bundles) {
    if (!afterBundles.has(bundle.target)) bundles.push(diffBundle(bundle.target, bundle, undefined)!);
  }
  return { before: before.file, after: after.file, identical: bundles.length === 0, bundles };
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.join(', ');
}

function describeKernelChange(change: KernelChange, table: AspectTable): string {
  switch (change.kind) {
    case 'appeared':
      return `appeared (in ${list(change.images)})`;
    case 'vanished':
      return `vanished (was in ${list(change.images)})`;
    case 'images':
      return change.before.length === 1 && change.after.length === 1
        ? `moved from ${change.before[0]!} to ${change.after[0]!}`
        : `now in ${list(change.after)} (was in ${list(change.before)})`;
    case 'aspect-gained':
      return `gained aspect ${formatAspect(change.aspect, table)}`;
    case 'aspect-lost':
      return `lost aspect ${formatAspect(change.aspect, table)}`;
    case 'sub-group-size':
      return `required sub-group size ${change.before ?? 'none'} -> ${change.after ?? 'none'}`;
    case 'work-group-size':
      return `required work-group size ${change.before?.join('x') ?? 'none'} -> ${change.after?.join('x') ?? 'none'}`;
    case 'emptied':
      return 'now empty (filtered out: no code for this target)';
    case 'unemptied':
      return 'no longer empty (has code for this target again)';
  }
}

function describeImageChange(change: ImageChange): string {
  switch (change.kind) {
    case 'appeared':
      return `appeared${change.empty ? ' (empty)' : ''}, kernels: ${list(change.kernels)}`;
    case 'vanished':
      return `vanished${change.empty ? ' (was empty)' : ''}, kernels were: ${list(change.kernels)}`;
    case 'format':
      return `format ${change.before} -> ${change.after}`;
    case 'code':
      return `code changed (${change.before.size} -> ${change.after.size} bytes)`;
  }
}

const IMAGE_MARK: Readonly<Record<ImageChange['kind'], string>> = { appeared: '+', vanished: '-', format: '~', code: '~' };

/** The text `syclkit inspect --diff` prints. */
export function formatDiff(diff: ContainerDiff, options: { readonly aspects?: AspectTable } = {}): string {
  const table = options.aspects ?? builtinAspectTable;
  const lines = [`--- ${diff.before}`, `+++ ${diff.after}`];
  if (diff.identical) lines.push('no differences in bundles, images, kernels or requirements');
  for (const bundle of diff.bundles) {
    if (bundle.status === 'added') {
      lines.push(`+ bundle ${bundle.target} (${bundle.imagesAfter} image${bundle.imagesAfter === 1 ? '' : 's'})`);
      continue;
    }
    if (bundle.status === 'removed') {
      lines.push(`- bundle ${bundle.target} (had ${bundle.imagesBefore} image${bundle.imagesBefore === 1 ? '' : 's'})`);
      continue;
    }
    lines.push(`bundle ${bundle.target}:`);
    for (const image of bundle.images) {
      for (const change of image.changes) lines.push(`  ${IMAGE_MARK[change.kind]} image ${image.name}: ${describeImageChange(change)}`);
    }
    for (const kernel of bundle.kernels) {
      lines.push(`  kernel ${kernel.name}: ${kernel.changes.map((change) => describeKernelChange(change, table)).join('; ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
