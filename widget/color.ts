// Colour arithmetic for readable widgets whatever brand colour a merchant picks (WCAG 2 contrast ratios).

type Rgb = [number, number, number];

/** `#abc`, `#aabbcc`, with or without `#`, any case → `#aabbcc`; undefined for anything else. */
export function normalizeHex(input: string): string | undefined {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(input.trim());
  if (!m) return undefined;
  const hex = m[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

function toRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(toRgb(a)), luminance(toRgb(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const BLACK = '#000000';
const WHITE = '#ffffff';

/** Black or white, whichever reads better on the colour (one of them always reaches at least 4.58:1). */
export function textOn(background: string): string {
  return contrast(background, BLACK) >= contrast(background, WHITE) ? BLACK : WHITE;
}

/**
 * The colour itself when it reaches `ratio` against the background, otherwise the colour mixed towards black or
 * white (away from the background) just far enough: the brand stays recognisable and stays readable.
 */
export function readableOn(color: string, background: string, ratio = 4.5): string {
  if (contrast(color, background) >= ratio) return color;
  const target = luminance(toRgb(background)) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  const from = toRgb(color);
  for (let step = 1; step <= 20; step++) {
    const t = step / 20;
    const mixed = toHex(from.map((c, i) => c + (target[i]! - c) * t) as Rgb);
    if (contrast(mixed, background) >= ratio) return mixed;
  }
  return toHex(target as Rgb);
}
