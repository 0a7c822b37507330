// The request messages of a call log as plain text turns. They come from clients, so they are only ever
// rendered as text (never as HTML); parts that are not text (images, audio) are shown as their JSON.

export interface MessageTurn {
  role: string;
  text: string;
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') return (part as { text: string }).text;
  return JSON.stringify(part);
}

/** A message's content: a string, an array of parts (OpenAI multimodal) or anything else as JSON. */
export function contentText(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return JSON.stringify(content, null, 2);
}

/**
 * The turns of `messages` when it is a list of `{role, content}` (tool calls appended as JSON), or
 * null when it is something else (the caller shows that as JSON). A JSON string is decoded first.
 */
export function messageTurns(messages: unknown): MessageTurn[] | null {
  let value = messages;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value) || !value.every((m) => m && typeof m === 'object' && typeof (m as { role?: unknown }).role === 'string')) return null;
  return (value as { role: string; content?: unknown; tool_calls?: unknown }[]).map((m) => ({
    role: m.role,
    text: [contentText(m.content), m.tool_calls ? JSON.stringify(m.tool_calls, null, 2) : ''].filter(Boolean).join('\n'),
  }));
}

/** Whether anything was kept at all (empty string, null, empty list = not kept). */
export function hasMessages(messages: unknown): boolean {
  if (messages === undefined || messages === null || messages === '') return false;
  return !(Array.isArray(messages) && messages.length === 0);
}
