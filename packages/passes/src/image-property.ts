/**
 * `explain-facts`: one more property per image, computed by the front end from what it knows
 * (syclkit compile: the explanation facts of the image's kernels, property set `syclkit/explain`).
 * The pass only decides where it goes: every row of an image with entry points, except device_if
 * add-on images (they hold actions, not kernels).
 */
import { ADD_ON_IMAGE_SET, enclosingImageSet, ImageUnit, imageKind, Slot } from '@syclkit/post-link';
import type { PropertySetRegistry, PropertyValue } from '@syclkit/formats';
import { definePass, PreservedAnalyses } from '@syclkit/pass-manager';

/** What `explain-facts` adds: the property set and name, and the value for an image's entry points. */
export interface ImageFactsSource {
  readonly set: string;
  readonly property: string;
  /** The value for an image with these entry points (undefined: nothing to add). */
  valueFor(entryPoints: readonly string[]): PropertyValue | undefined;
}

export const EXPLAIN_FACTS = new Slot<ImageFactsSource>('explain facts');

export const explainFactsPass = definePass({
  name: 'explain-facts',
  unit: imageKind,
  summary: "Adds the facts 'syclkit explain' reads (the set's facts source) to the properties of every image with kernels; nothing without a source.",
  preserves: 'all',
  create: () => (image: ImageUnit, ctx) => {
    const set = enclosingImageSet(ctx);
    const source = set.get(EXPLAIN_FACTS);
    if (source === undefined || image.entryNames.length === 0) return PreservedAnalyses.all();
    let value: PropertyValue | undefined;
    let computed = false;
    const done = new Set<PropertySetRegistry>();
    for (const row of image.rows) {
      const registry = row?.properties;
      if (registry === undefined || done.has(registry)) continue;
      done.add(registry);
      if (registry.getSet(ADD_ON_IMAGE_SET) !== undefined) continue;
      if (!computed) {
        value = source.valueFor(image.entryNames);
        computed = true;
      }
      if (value !== undefined) registry.add(source.set, source.property, value);
    }
    return PreservedAnalyses.all();
  },
});

