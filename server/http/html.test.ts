import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cspHash, escapeHtml } from './html.js';
import { inlineScript } from './inline-script.js';

describe('escapeHtml', () => {
  it('leaves no character that could open a tag, end an attribute or start an entity', () => {
    const escaped = escapeHtml(`<a href="x" onclick='y'>&amp;</a>`);
    expect(escaped).not.toMatch(/[<>"'&](?!#\d+;)/);
    expect(escaped).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;');
  });
});

describe('inline page scripts (built by Vite into dist/browser/)', () => {
  it.each(['slider', 'configurator', 'review-form'] as const)('%s is allowed by exactly its CSP hash', (name) => {
    const script = inlineScript(name);
    expect(script.source.length).toBeGreaterThan(100);
    expect(script.source).not.toMatch(/<\/script/i);
    const expected = `'sha256-${createHash('sha256').update(script.source, 'utf8').digest('base64')}'`;
    expect(script.hash).toBe(expected);
    expect(cspHash(script.source)).toBe(expected);
  });
});
