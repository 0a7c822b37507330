// Model types in the current language (the core table of names), for pickers, filters and tags.
import { useMemo } from 'react';
import type { Locale } from '@fastgate/core/constants';
import { MODEL_TYPE_LABELS, MODEL_TYPES, type ModelTypeValue } from '@fastgate/core/entities/model';
import { useGlobalLocale } from '../locale';

export const typeLabel = (type: number, lang: Locale) => MODEL_TYPE_LABELS[type as ModelTypeValue]?.[lang] ?? String(type);

/** Model types as picker options in the current language. */
export function useTypeOptions() {
  const { locale: lang } = useGlobalLocale();
  return useMemo(() => MODEL_TYPES.map((type) => ({ label: MODEL_TYPE_LABELS[type][lang], value: type as number })), [lang]);
}
