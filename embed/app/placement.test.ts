import { describe, expect, it } from 'vitest';
import { centreUnder, cssTop, mobileLayout, readBeforePage } from './placement.js';

const layout = (mobile: string, mobile_tab = 'left', top = '300') =>
  mobileLayout({ mobile, mobile_tab, top } as Parameters<typeof mobileLayout>[0]);

describe('mobile modes', () => {
  it('none shows nothing; top_bar is the bar (the tab position does not apply)', () => {
    expect(layout('none')).toEqual({ kind: 'none' });
    expect(layout('top_bar', 'right')).toEqual({ kind: 'bar' });
  });

  it('top and bottom put the tab on that edge where _service_mobile_tab says', () => {
    expect(layout('top', 'left')).toEqual({ kind: 'tab', edge: 'top', style: { top: '0', left: '0' } });
    expect(layout('bottom', 'right')).toEqual({ kind: 'tab', edge: 'bottom', style: { bottom: '0', right: '0' } });
    expect(layout('bottom', 'center')).toEqual({
      kind: 'tab',
      edge: 'bottom',
      style: { bottom: '0', left: '50%', transform: 'translateX(-50%)' },
    });
  });

  it('the corner modes put the tab in their corner', () => {
    expect(layout('top_left', 'right')).toEqual({ kind: 'tab', edge: 'top', style: { top: '0', left: '0' } });
    expect(layout('top_right')).toEqual({ kind: 'tab', edge: 'top', style: { top: '0', right: '0' } });
    expect(layout('bottom_left')).toEqual({ kind: 'tab', edge: 'bottom', style: { bottom: '0', left: '0' } });
    expect(layout('bottom_right')).toEqual({ kind: 'tab', edge: 'bottom', style: { bottom: '0', right: '0' } });
  });

  it('the manual modes offset the tab by _service_sidebar_top from their edge', () => {
    expect(layout('top_manual', 'right', '120')).toEqual({
      kind: 'tab',
      edge: 'top',
      style: { top: '120px', right: '0' },
    });
    expect(layout('bottom_manual', 'center', '10%')).toEqual({
      kind: 'tab',
      edge: 'bottom',
      style: { bottom: '10%', left: '50%', transform: 'translateX(-50%)' },
    });
  });

  it('reads the top offset as pixels unless it says otherwise', () => {
    expect([cssTop('300'), cssTop('300px'), cssTop('40%'), cssTop('12.5')]).toEqual([
      '300px',
      '300px',
      '40%',
      '12.5px',
    ]);
  });
});

describe('accessibility of the placement', () => {
  it('a bar or a tab at the top is read before the page; tabs at the bottom and nothing at all after it', () => {
    expect(['top_bar', 'top', 'top_left', 'top_right', 'top_manual'].map((m) => readBeforePage(layout(m)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ['bottom', 'bottom_left', 'bottom_right', 'bottom_manual', 'none'].map((m) => readBeforePage(layout(m))),
    ).toEqual([false, false, false, false, false]);
  });

  it('our element steps aside when the centre of the focused element is under it', () => {
    const box = (left: number, top: number, width: number, height: number) => ({
      left,
      top,
      right: left + width,
      bottom: top + height,
    });
    const sidebar = box(0, 300, 110, 130);
    expect(centreUnder(box(4, 310, 72, 28), sidebar)).toBe(true);
    expect(centreUnder(box(80, 310, 72, 28), sidebar)).toBe(false);
    expect(centreUnder(box(0, 0, 1280, 2000), sidebar)).toBe(false);
    expect(centreUnder(box(4, 280, 72, 28), sidebar)).toBe(false);
  });
});
