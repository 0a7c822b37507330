// Arco form rules from the core zod field schemas: the web checks exactly what the server checks, and
// shows the same message text (core message keys).
import type { RulesProps } from '@arco-design/web-react';
import { isMessageKey } from '@fastgate/core/messages';
import { tm } from '../locale';

interface FieldSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { message: string }[] } };
}

export function zodRule(schema: FieldSchema): RulesProps {
  return {
    validator: (value: unknown, callback: (error?: string) => void) => {
      if (value === undefined || value === null || value === '') return callback();
      const result = schema.safeParse(value);
      if (result.success) return callback();
      const message = result.error?.issues[0]?.message ?? '';
      callback(isMessageKey(message) ? tm(message) : message);
    },
  };
}

interface MessageFieldSchema {
  safeParse(value: unknown, params?: { error?: () => string }): { success: boolean; error?: { issues: readonly { message: string }[] } };
}

/** zodRule with the page's own message instead of zod's generic one; `toStored` maps the input to the stored value first. */
export function schemaRule(schema: MessageFieldSchema, message: string, toStored: (value: never) => unknown = (v) => v): RulesProps {
  return zodRule({ safeParse: (value: unknown) => schema.safeParse(toStored(value as never), { error: () => message }) });
}

export function required(message: string): RulesProps {
  return { required: true, message };
}
