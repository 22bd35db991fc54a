import { describe, expect, it } from 'vitest';
import { cspSourceFor, decodeCssEscapes, httpsStylesheetUrl, parseCustomCss } from './css.js';

const problem = (css: string) => {
  const result = parseCustomCss(css);
  return result.ok ? undefined : result.problem;
};

describe('parseCustomCss', () => {
  it('keeps ordinary rules, including child combinators, strings and media ranges', () => {
    const css =
      '.sc{background:#c00!important} .w > a{quotes:"\\201C" "\\201D"} @media (width < 400px){.t{display:none}}';
    expect(parseCustomCss(css)).toEqual({ ok: true, value: { kind: 'rules', css, imports: [] } });
  });

  it('takes an https URL as a stylesheet and refuses other schemes', () => {
    expect(parseCustomCss(' https://cdn.example.com/widget.css?v=2 ')).toEqual({
      ok: true,
      value: { kind: 'url', url: 'https://cdn.example.com/widget.css?v=2' },
    });
    expect(parseCustomCss('//cdn.example.com/w.css')).toMatchObject({
      ok: true,
      value: { url: 'https://cdn.example.com/w.css' },
    });
    for (const url of [
      'http://cdn.example.com/w.css',
      'javascript:alert(1)',
      'data:text/css,a',
      'https://user:pw@x.example/a.css',
    ]) {
      expect(problem(url), url).toBe('a stylesheet URL must be an https URL');
    }
  });

  it.each([
    ['a closing style tag', 'a{}</style><script>alert(1)</script>'],
    ['a closing style tag in any case', 'a{}</STYLE >'],
    ['markup', '<img src=x onerror=alert(1)>'],
    ['a comment opener', 'a{}<!--'],
  ])('refuses %s', (_name, css) => {
    expect(problem(css)).toBe('must not contain markup');
  });

  it.each([
    ['javascript: URLs', 'a{background:url(javascript:alert(1))}', 'javascript'],
    ['javascript: hidden by escapes', 'a{background:url(java\\73 cript:alert(1))}', 'javascript'],
    ['javascript: split by whitespace escapes', 'a{background:url(JaVa\\\nScRiPt:alert(1))}', 'javascript'],
    ['expression()', 'a{width:expression(alert(1))}', 'expression'],
    ['expression() split by a comment', 'a{width:expr/**/ession(alert(1))}', 'expression'],
    ['expression() with escapes', 'a{width:e\\78pression(alert(1))}', 'expression'],
    ['-moz-binding', 'a{-moz-binding:url(https://x.example/x.xml#x)}', '-moz-binding'],
    ['behavior', 'a{behavior:url(x.htc)}', 'behavior'],
    ['vbscript:', 'a{background:url(vbscript:x)}', 'vbscript'],
  ])('refuses %s', (_name, css, token) => {
    expect(problem(css)).toBe(`must not contain ${token}`);
  });

  it('allows @import of https stylesheets and lists them for the CSP', () => {
    const result = parseCustomCss(
      '@import url("https://fonts.example.com/a.css"); @import \'https://cdn.example.com/b.css\' screen; a{color:red}',
    );
    expect(result).toMatchObject({
      ok: true,
      value: { kind: 'rules', imports: ['https://fonts.example.com/a.css', 'https://cdn.example.com/b.css'] },
    });
  });

  it.each([
    '@import url(http://evil.example/a.css);',
    '@import "//evil.example/a.css";',
    '@import "relative.css";',
    '@\\69mport url(http://evil.example/a.css);',
    '@import/**/url(http://evil.example/a.css);',
    'a{content:"/*"} @import url(http://evil.example/a.css); a{content:"*/"}',
  ])('refuses @import of a non-https URL: %s', (css) => {
    expect(problem(css)).toBe('@import must name an https URL');
  });

  it('refuses control characters and oversized values', () => {
    expect(problem('a{}\u0000')).toBe('must not contain control characters');
    expect(problem(`a{color:red}${' '.repeat(9000)}b{}`)).toMatch(/at most 8000/);
  });
});

describe('parseCustomCss: content', () => {
  const rules = (css: string) => {
    const result = parseCustomCss(css);
    if (!result.ok || result.value.kind !== 'rules') throw new Error(`not accepted as rules: ${css}`);
    return result.value.css;
  };

  it.each([
    ['text', '.w::before{content:"Call 0800 to claim your refund"}', '.w::before{}'],
    ['text among other declarations', '.w::after{color:red;content:"x";margin:0}', '.w::after{color:red;;margin:0}'],
    ['text marked important', '.w::before{content:"x" !important;color:red}', '.w::before{;color:red}'],
    ['an attribute', '.w a::after{content:attr(title)}', '.w a::after{}'],
    ['a counter', '.w::before{content:counter(x) " reviews"}', '.w::before{}'],
    ['a variable', '.w{--t:"Free money"}.w::before{content:var(--t)}', '.w{--t:"Free money"}.w::before{}'],
    ['an upper-case name', '.w::before{CONTENT:"x"}', '.w::before{}'],
    ['an escaped name', '.w::before{c\\6fntent:"x"}', '.w::before{}'],
    ['a name after a comment', '.w::before{/* hi */content/**/:"x"}', '.w::before{}'],
    ['a string holding ; and }', '.w::before{content:"a;}b{color:red}"}.t{color:blue}', '.w::before{}.t{color:blue}'],
    ['an escaped quote in the string', '.w::before{content:"a\\";content:\\"b"}', '.w::before{}'],
    ['a nested rule', '.w{color:red;&::before{content:"x"}}', '.w{color:red;&::before{}}'],
    ['a nested rule before it', '.w::before{&.x{color:red}content:"x"}', '.w::before{&.x{color:red}}'],
    ['a media rule', '@media (min-width:1px){.w::before{content:"x"}}', '@media (min-width:1px){.w::before{}}'],
    ['an unquoted url holding ; and }', '.w{background:url(a;b}c);content:"x"}', '.w{background:url(a;b}c);}'],
    ['a url() named with an escape', '.w{background:u\\72 l(a"b);content:"x"}', '.w{background:u\\72 l(a"b);}'],
    ['a url() holding a quote', '.w{background:url(a"b);content:"x"}', '.w{background:url(a"b);}'],
    ['a string continued on the next line', '.w{x:"a\\\r\nb";content:"x"}', '.w{x:"a\\\r\nb";}'],
    ['a hash named url', '.w{x:#url( "a)" );content:"x"}', '.w{x:#url( "a)" );}'],
    ['a value cut short', '.w::before{content:"x" counter(a', '.w::before{'],
    ['a block cut short', '.w::before{color:red;content:"x"', '.w::before{color:red;'],
  ])('drops a content declaration with %s', (_name, css, expected) => {
    expect(rules(css)).toBe(expected);
  });

  it.each([
    '.w::before{content:""}',
    ".w::before{content:''}",
    '.w::before{content: "" !important;display:block}',
    '.w::before{content:none}',
    '.w::before{content:normal}',
    '.w{--content:"x"}',
    '.w{background-content:"x"}',
    '.content{color:red}',
    'a[title="content:x"]{color:red}',
    '.w{x:#url("a)");y:1}',
  ])('keeps %s', (css) => {
    expect(rules(css)).toBe(css);
  });

  it("never refuses a value for its content declarations (merchants' iframes keep rendering)", () => {
    expect(parseCustomCss('.sc::after{content:"★"}')).toEqual({
      ok: true,
      value: { kind: 'rules', css: '.sc::after{}', imports: [] },
    });
  });
});

describe('CSS helpers', () => {
  it('decodes escapes as the CSS tokenizer does', () => {
    expect(decodeCssEscapes('\\6a \\61va\\:')).toBe('java:');
    expect(decodeCssEscapes('\\0')).toBe('\ufffd');
  });

  it('accepts only URLs that are safe in an attribute and in a CSP header', () => {
    expect(httpsStylesheetUrl('https://x.example/a;b.css')).toBeUndefined();
    expect(httpsStylesheetUrl("https://x.example/a'b.css")).toBeUndefined();
    expect(httpsStylesheetUrl('https://x.example/a b.css')).toBe('https://x.example/a%20b.css');
    expect(cspSourceFor('https://x.example:8443/css/a.css?v=1')).toBe('https://x.example:8443/css/a.css');
  });
});
