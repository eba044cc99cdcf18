import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('shows the exact .prop text the Use example writes', () => {
    const props = new api.PropertySetRegistry();
    props.add(api.PropertySetName.DEVICELIB_REQ_MASK, 'DeviceLibReqMask', api.uint32Value(0));
    api.addDeviceRequirements(props, { aspects: [1, 6], reqdSubGroupSize: 16, compileTarget: 'intel_gpu_pvc' });
    props.add(api.PropertySetName.KERNEL_PARAM_OPT_INFO, '_ZTS7Kernel1', api.bitVectorValue([true, false]));
    const marker = 'writePropertySetRegistry(props);\n';
    const start = readme.indexOf(marker) + marker.length;
    const documented = readme
      .slice(start, readme.indexOf('\n\n', start))
      .split('\n')
      .map((line) => line.replace(/^\/\/ /, ''))
      .join('\n');
    expect(`${documented}\n`).toBe(api.writePropertySetRegistry(props));
  });

  it('documents every file-table-tform flag the tool has', () => {
    for (const flag of ['-extract=', '-rename=', '-replace=', '-replace_cell=', '-copy_single_file=', '-merge=', '-drop_titles']) {
      expect(readme).toContain(`\`${flag}`);
    }
  });

  it('has the sections CONTRIBUTING.md requires', () => {
    for (const section of ['## Use', '## Options', '## Preserves', '## Diagnostics']) expect(readme).toContain(`\n${section}\n`);
  });
});
