// Chinese copy takes full-width punctuation (，。：；！？（）). A half-width `,:;!?()` (or a `.` ending a sentence) touching Chinese text is
// a slip; one between Latin words, in a URL, a time or a placeholder is not (`OpenAI, Anthropic`, `https://`).
// Used by punctuation.test.ts over every zh-CN table.

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const SPACE = /\s/;

/** The nearest non-space character before / after `at`, or ''. */
function neighbour(text: string, at: number, step: -1 | 1): string {
  for (let i = at + step; i >= 0 && i < text.length; i += step) if (!SPACE.test(text[i]!)) return text[i]!;
  return '';
}

/** The text between `at` and the next clause break before / after it. */
function clause(text: string, at: number, step: -1 | 1): string {
  const breaks = /[,;:!?，；：。！？]/;
  let i = at + step;
  while (i >= 0 && i < text.length && !breaks.test(text[i]!)) i += step;
  return step < 0 ? text.slice(i + 1, at) : text.slice(at + 1, i);
}

/** Half-width punctuation next to Chinese text in `text`, each as a short excerpt around it. */
export function mixedPunctuation(text: string): string[] {
  const found: string[] = [];
  const excerpt = (at: number) => text.slice(Math.max(0, at - 8), at + 9);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (',:;!?'.includes(c) && (CJK.test(neighbour(text, i, -1)) || CJK.test(neighbour(text, i, 1)))) found.push(excerpt(i));
    // A comma or semicolon between two Chinese clauses (`80 表示付 80%, 100 表示原价`).
    else if (',;'.includes(c) && CJK.test(clause(text, i, -1)) && CJK.test(clause(text, i, 1))) found.push(excerpt(i));
    // A full stop after Chinese text that ends a sentence (not `*.example.com` or a decimal).
    if (c === '.' && CJK.test(text[i - 1] ?? '') && !/[\w.…]/.test(text[i + 1] ?? '')) found.push(excerpt(i));
    if (c === '(') {
      // A pair is Chinese when it touches Chinese text outside or holds some; both halves go full-width.
      const close = text.indexOf(')', i);
      const inner = close < 0 ? text.slice(i + 1) : text.slice(i + 1, close);
      if (CJK.test(neighbour(text, i, -1)) || CJK.test(inner) || (close >= 0 && CJK.test(neighbour(text, close, 1)))) found.push(excerpt(i));
    }
    // A half-width half of a full-width pair.
    if (c === ')' && text.lastIndexOf('（', i) > text.lastIndexOf('(', i)) found.push(excerpt(i));
    if (c === '）' && text.lastIndexOf('(', i) > text.lastIndexOf('（', i)) found.push(excerpt(i));
  }
  return found;
}
