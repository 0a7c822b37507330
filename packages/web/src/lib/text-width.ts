// Rendered width of a line of text, so columns can be as wide as their header in whichever language shows.
let context: CanvasRenderingContext2D | null | undefined;

/** Width in px of `text` in the body's font at `size` and `weight`; a rough estimate where canvas is missing. */
export function textWidth(text: string, size = 14, weight = 500): number {
  if (context === undefined) context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return [...text].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e7f ? size : size * 0.6), 0);
  context.font = `${weight} ${size}px ${getComputedStyle(document.body).fontFamily}`;
  return context.measureText(text).width;
}
