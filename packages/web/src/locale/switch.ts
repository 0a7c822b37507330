// The language switch of the navbar and the settings drawer.
import { Message } from '@arco-design/web-react';
import type { Locale } from '@fastgate/core/constants';
import { i18n, setLocale } from './index';

/** docs/SPEC.md §4.7: switch only when different; saved; a success message in the new language. */
export async function switchLocale(locale: Locale): Promise<void> {
  if (await setLocale(locale)) Message.success(i18n.t('locale.switched'));
}

export const LOCALE_OPTIONS: { value: Locale; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
];
