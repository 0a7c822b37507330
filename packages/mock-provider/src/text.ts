// Deterministic content and token counts, so tests can predict exactly what a call costs.

/** The mock's token count: one token per started group of 4 characters (at least 1 for non-empty text). */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

export function answerFor(model: string, prompt: string): string {
  const echo = prompt.replace(/\[\[mock:[^\]]*\]\]/g, '').trim().slice(0, 40);
  return `Hello from mock ${model}! You said: ${echo}`;
}

/** Splits an answer into `n` stream pieces (words by default). */
export function pieces(text: string, n?: number): string[] {
  if (!n || n <= 0) return text.match(/\S+\s*/g) ?? [text];
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A unit vector derived from the text, `dims` long. */
export function embeddingFor(text: string, dims = 8): number[] {
  let h = 2166136261;
  const v: number[] = [];
  for (let i = 0; i < dims; i++) {
    for (const ch of `${i}:${text}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    v.push((h % 2000) / 1000 - 1);
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => Number((x / norm).toFixed(6)));
}
