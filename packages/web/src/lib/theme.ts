// Theme side effects of the settings (docs/SPEC.md §2.5 drawer, §4.7): dark mode, primary colour shades, colour weakness.
import { useEffect } from 'react';
import { generate, getRgbStr } from '@arco-design/color';
import { useSettingsStore } from '../stores/settings';

/** The 10 graded shades of a colour (docs/SPEC.md §9), as hex values. */
export function themeShades(color: string, dark = false): string[] {
  return generate(color, { list: true, dark }) as string[];
}

export function useApplyTheme(): void {
  const theme = useSettingsStore((s) => s.theme);
  const themeColor = useSettingsStore((s) => s.themeColor);
  const colorWeak = useSettingsStore((s) => s.colorWeak);

  useEffect(() => {
    if (theme === 'dark') document.body.setAttribute('arco-theme', 'dark');
    else document.body.removeAttribute('arco-theme');
  }, [theme]);

  useEffect(() => {
    themeShades(themeColor, theme === 'dark').forEach((shade, index) => {
      document.body.style.setProperty(`--arcoblue-${index + 1}`, getRgbStr(shade));
    });
  }, [themeColor, theme]);

  useEffect(() => {
    document.documentElement.style.filter = colorWeak ? 'invert(80%)' : '';
  }, [colorWeak]);
}
