// i18n for the console (docs/SPEC.md §4.7 locale change, §9): zh-CN by default or the stored preference, en-US fallback.
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { useCallback } from 'react';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@fastgate/core/constants';
import { t as coreT, type MessageKey } from '@fastgate/core/messages';
import { STORAGE } from '../lib/settings';
import { zhCN } from './zh-CN';
import { enUS } from './en-US';

export type GlobalKey = keyof typeof zhCN;

function storedLocale(): Locale {
  const value = localStorage.getItem(STORAGE.locale);
  return (LOCALES as readonly string[]).includes(value ?? '') ? (value as Locale) : DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  lng: storedLocale(),
  fallbackLng: 'en-US',
  supportedLngs: [...LOCALES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
});

export { i18n };

export function currentLocale(): Locale {
  return (LOCALES as readonly string[]).includes(i18n.language) ? (i18n.language as Locale) : DEFAULT_LOCALE;
}

/** Switch only when different (docs/SPEC.md §4.7); the choice is saved. Returns whether it changed. */
export async function setLocale(locale: Locale): Promise<boolean> {
  if (locale === currentLocale()) return false;
  localStorage.setItem(STORAGE.locale, locale);
  document.documentElement.lang = locale;
  await i18n.changeLanguage(locale);
  return true;
}

/** Global strings with typed keys. Dynamic keys (menu titles) go through `tk`. */
export function useGlobalLocale() {
  const { t, i18n: instance } = useTranslation();
  const locale = (LOCALES as readonly string[]).includes(instance.language) ? (instance.language as Locale) : DEFAULT_LOCALE;
  const g = useCallback((key: GlobalKey, vars?: Record<string, string | number>) => t(key, vars ?? {}), [t]);
  const tk = useCallback((key: string) => t(key), [t]);
  return { g, tk, locale };
}

/** Text of a core message key in the current locale: for form rules that mirror the server's checks. */
export function tm(key: MessageKey, vars?: Record<string, string | number>): string {
  return coreT(key, currentLocale(), vars);
}

export type PageDict<K extends string> = { 'zh-CN': Record<K, string>; 'en-US': Record<K, string> };

/** Define a page's colocated strings: zh-CN is the primary dictionary, en-US must match its keys. */
export function definePageLocale<Z extends Record<string, string>>(zh: Z, en: Record<keyof Z, string>): PageDict<Extract<keyof Z, string>> {
  return { 'zh-CN': zh, 'en-US': en } as PageDict<Extract<keyof Z, string>>;
}

/** A page's dictionary plus a shared component's, for a page that shows the component's strings too. */
export function withLocale<P extends string, S extends string>(page: PageDict<P>, shared: PageDict<S>): PageDict<P | S> {
  return { 'zh-CN': { ...shared['zh-CN'], ...page['zh-CN'] }, 'en-US': { ...shared['en-US'], ...page['en-US'] } };
}

/** A page's strings for the current locale, re-rendering when the locale changes. */
export function usePageLocale<K extends string>(dict: PageDict<K>) {
  const { locale } = useGlobalLocale();
  return useCallback(
    (key: K, vars?: Record<string, string | number>) =>
      dict[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars?.[name] ?? `{${name}}`)),
    [dict, locale],
  );
}
