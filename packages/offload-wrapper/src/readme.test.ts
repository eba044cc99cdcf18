import { readFileSync } from 'node:fs';
import { PropertySetRegistry, uint32Value } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { AOT_BACKENDS, CONTAINER_LAYOUT, TABLE_TRANSFORM_OPS, deviceImage, readContainer, writeContainer } from './index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push(`${i.toString(16).padStart(4, '0')}  ${[...bytes.subarray(i, i + 16)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`);
  }
  return lines.join('\n');
}

describe('README', () => {
  it('has the sections CONTRIBUTING.md requires, and the container format', () => {
    for (const section of ['## Use', '## Options', '## Preserves', '## Diagnostics', '## Container format', '## Wrapper IR']) {
      expect(readme).toContain(`\n${section}\n`);
    }
  });

  it('shows the exact bytes of its worked container example', () => {
    const properties = new PropertySetRegistry();
    properties.add('S', 'n', uint32Value(16));
    const bytes = writeContainer({
      bundles: [{ target: 'spir64', images: [deviceImage({ name: 'a', target: 'spir64', image: Uint8Array.of(3, 2, 0x23, 7), entries: ['K'], properties })] }],
    });
    const start = readme.indexOf('```\n0000  ') + 4;
    const documented = readme.slice(start, readme.indexOf('\n```', start));
    expect(documented).toBe(hexDump(bytes));
    const image = readContainer(bytes).bundles[0]!.images[0]!;
    expect([image.name, image.format, image.entries]).toEqual(['a', 2, ['K']]);
  });

  it('documents the sizes the layout constants have', () => {
    expect(readme).toContain(`**Header** (offset 0):`);
    expect(readme).toContain(`| 12 | 4 | u32 CRC-32 of bytes 0–11 |`);
    expect(CONTAINER_LAYOUT).toEqual({ headerSize: 16, recordHeaderSize: 28, sharedRecordHeaderSize: 36, trailerSize: 32 });
    expect(readme).toContain('header (16 bytes) | image record* | index | trailer (32 bytes)');
    expect(readme).toContain('| 28 | M | metadata |');
  });

  it('documents every file-table-tform operation and AOT backend', () => {
    for (const op of TABLE_TRANSFORM_OPS) expect(readme).toContain(`\`-${op}=`);
    expect(readme).toContain('`-drop_titles`');
    for (const backend of AOT_BACKENDS) expect(readme).toContain(`| \`${backend}\``);
  });
});
