import { describe, expect, it } from 'vitest';
import { html, raw } from '../../../src/console/html.js';

describe('html template', () => {
  it('escapes every interpolation: markup, quotes and backticks in text and attributes', () => {
    const evil = `<script>alert("x")</script>' onmouseover=\`y\` &amp;`;
    const out = html`<p title="${evil}">${evil}</p>`.text;
    expect(out).not.toContain('<script>');
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#96;y&#96; &amp;amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#96;y&#96; &amp;amp;</p>',
    );
  });

  it('keeps markup made by html or raw, joins arrays and writes nothing for absent values', () => {
    const items = ['<a>', 'b'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${undefined}${null}${false}${raw('<hr>')}${0}`.text).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul><hr>0',
    );
  });

  it('escapes a plain object that merely looks like markup', () => {
    const fake = { text: '<b>' } as unknown as string;
    expect(html`${fake}`.text).toBe('[object Object]');
  });
});
