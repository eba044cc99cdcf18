import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('formats public surface', () => {
  it('exports at least one name', () => {
    expect(Object.keys(api).length).toBeGreaterThan(0);
  });
});
