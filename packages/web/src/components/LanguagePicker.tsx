import { Button, Dropdown, Menu } from '@arco-design/web-react';
import { IconLanguage } from '@arco-design/web-react/icon';
import type { Locale } from '@fastgate/core/constants';
import { LOCALE_OPTIONS, switchLocale } from '../locale/switch';
import { useGlobalLocale } from '../locale';

/** The language dropdown: a labelled text button on the login screens, a round icon in the navbar. */
export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { g, locale } = useGlobalLocale();
  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu selectedKeys={[locale]} onClickMenuItem={(key) => void switchLocale(key as Locale)}>
          {LOCALE_OPTIONS.map((o) => (
            <Menu.Item key={o.value} data-testid={`language-${o.value}`}>
              {o.label}
            </Menu.Item>
          ))}
        </Menu>
      }
    >
      {compact ? (
        <Button shape="circle" icon={<IconLanguage />} aria-label={g('navbar.language')} data-testid="language-switch" />
      ) : (
        <Button type="text" icon={<IconLanguage />} aria-label={g('navbar.language')} data-testid="language-switch">
          {LOCALE_OPTIONS.find((o) => o.value === locale)?.label}
        </Button>
      )}
    </Dropdown>
  );
}
