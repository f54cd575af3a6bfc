import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './svg-sanitize';
import { percentBarChart } from './svg-chart';

describe('sanitizeSvg', () => {
  it('keeps drawing elements and their safe attributes', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect x="1" y="2" width="3" height="4" fill="#fff"/><text x="1">a &amp; b</text></svg>';
    expect(sanitizeSvg(svg)).toBe(svg);
  });

  it('drops scripts, handlers, links, external references and styles', () => {
    const evil =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script>' +
      '<a href="javascript:alert(3)"><text>x</text></a><image href="http://evil/x.png"/>' +
      '<rect fill="url(http://evil/#p)" width="1" onclick="alert(4)" style="background:url(x)"/>' +
      '<foreignObject><div>hi</div></foreignObject><!-- c --><use href="#a"/><text>ok</text></svg>';
    const clean = sanitizeSvg(evil);
    expect(clean).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1"/><text>ok</text></svg>');
  });

  it('re-escapes text and closes what was left open', () => {
    expect(sanitizeSvg('<svg><text>1 &lt; 2 <b>bold</b>')).toBe('<svg><text>1 &lt; 2 bold</text></svg>');
  });
});

describe('percentBarChart', () => {
  it('draws one bar per datum and escapes labels', () => {
    const svg = percentBarChart({
      title: 'Rate <by> range',
      yLabel: '%',
      reference: 50,
      bars: [
        { label: '< 1.00 ATR', value: 55, low: 40, high: 70, count: 20 },
        { label: '≥ 1.00 ATR', value: NaN, count: 0 },
      ],
    });
    expect(svg.match(/<rect /g)).toHaveLength(2); // background + one bar (the empty bucket has none)
    expect(svg).toContain('Rate &lt;by&gt; range');
    expect(svg).toContain('&lt; 1.00 ATR');
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});
