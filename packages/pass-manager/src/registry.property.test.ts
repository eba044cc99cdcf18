/**
 * Properties of pipeline text over pipelines generated from the toy registry's names and options
 * (every option type, require/invalidate, adaptors nested two levels, three unit kinds):
 * 1. parse(print(p)) equals p (the printer and parser are inverse on canonical pipelines).
 * 2. Printing is canonical: print(parse(print(p))) equals print(p).
 * 3. Building then printing the runnable pipeline gives the same text as printing the nodes.
 * 4. Whitespace around ',' and ')' and after '(' does not change the parse.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { UnitKind } from './index.js';
import { fcOptions } from '@syclkit/testing';
import { pipelineArbitrary } from '../test/testing.js';
import { imageSetKind, moduleKind, toyRegistry } from '../test/toy.js';

const registry = toyRegistry();

describe('pipeline text round trip', () => {
  for (const kind of [moduleKind, imageSetKind]) {
    test.prop([pipelineArbitrary(registry, kind)], fcOptions())(`parse(print(p)) equals p on ${kind.name} pipelines`, (pipeline) => {
      const text = registry.print(pipeline, { unit: kind });
      expect(registry.parse(text, { unit: kind })).toEqual(pipeline);
    });

    test.prop([pipelineArbitrary(registry, kind)], fcOptions())(`printing is canonical on ${kind.name} pipelines`, (pipeline) => {
      const text = registry.print(pipeline, { unit: kind });
      expect(registry.print(registry.parse(text, { unit: kind }), { unit: kind })).toBe(text);
    });

    test.prop([pipelineArbitrary(registry, kind)], fcOptions())(`a built ${kind.name} pipeline prints as its nodes do`, (pipeline) => {
      expect(registry.build(pipeline, { unit: kind as UnitKind<object> }).text).toBe(registry.print(pipeline, { unit: kind }));
    });
  }

  test.prop([pipelineArbitrary(registry, moduleKind), fc.constantFrom(' ', '  ', '\t')], fcOptions())(
    'whitespace around separators does not change the parse',
    (pipeline, space) => {
      const text = registry.print(pipeline, { unit: moduleKind });
      // Only separators outside <...> may take spaces; option values keep theirs verbatim.
      let spaced = '';
      let inOptions = false;
      for (const c of text) {
        if (c === '<') inOptions = true;
        if (c === '>') inOptions = false;
        if (!inOptions && (c === ',' || c === ')')) spaced += `${space}${c}${space}`;
        else if (!inOptions && c === '(') spaced += `${c}${space}`;
        else spaced += c;
      }
      expect(registry.parse(`${space}${spaced}${space}`, { unit: moduleKind })).toEqual(pipeline);
    },
  );
});
