import { describe, expect, it } from 'vitest';
import { contrast, normalizeHex, readableOn, textOn } from '../../widget/color.js';

const sample = [
  '#000000',
  '#ffffff',
  '#1a7f37',
  '#ffff00',
  '#e8590c',
  '#777777',
  '#0969da',
  '#ff00ff',
  '#00ffff',
  '#3b3b3b',
];
const backgrounds = ['#ffffff', '#16191d'];

describe('widget colours', () => {
  it('normalises hex colours and refuses anything else', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc');
    expect(normalizeHex('1A7F37')).toBe('#1a7f37');
    for (const bad of ['red', 'red;}', '#12345', '#ggg', 'rgb(0,0,0)', '']) expect(normalizeHex(bad)).toBeUndefined();
  });

  it('puts readable text on any brand colour', () => {
    for (let i = 0; i < 4096; i++) {
      const color = `#${i.toString(16).padStart(3, '0')}`;
      const full = normalizeHex(color)!;
      expect(contrast(full, textOn(full))).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('adjusts the brand colour until it reads on the theme background, keeping it when it already does', () => {
    expect(readableOn('#1a7f37', '#ffffff')).toBe('#1a7f37');
    for (const bg of backgrounds) {
      for (const color of sample) expect(contrast(readableOn(color, bg), bg)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
