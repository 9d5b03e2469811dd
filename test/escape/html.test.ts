import { describe, expect, it } from 'vitest';
import { htmlText, scriptJson } from '../../src/escape/index.js';

describe('HTML escaping (the HTML audit report)', () => {
  const hostile = '</script><script>alert(1)</script><!-- & "q" \'s\' \u2028\u2029 \u202e';

  it('scriptJson: no <, > or & survives, so a </script> or <!-- in spec text cannot end the element; parsed back it is the same', () => {
    const text = scriptJson({ key: hostile, list: [hostile] });
    expect(text).not.toMatch(/[<>&\u2028\u2029\u202e]/);
    expect(JSON.parse(text)).toEqual({ key: hostile, list: [hostile] });
  });

  it('htmlText: the five characters that can end element text or a quoted attribute become references', () => {
    expect(htmlText(hostile)).not.toMatch(/[<>"']/);
    expect(htmlText('a & b')).toBe('a &amp; b');
    expect(htmlText('"x" \'y\' <z>')).toBe('&quot;x&quot; &#39;y&#39; &lt;z&gt;');
  });
});
