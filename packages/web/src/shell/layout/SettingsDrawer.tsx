// The settings drawer of docs/SPEC.md §2.5: layout switches, menu width, colour weakness, theme colour, language,
// dark mode and "copy settings" (the JSON of src/lib/settings.ts).
import type { ReactNode } from 'react';
import { Alert, ColorPicker, Drawer, InputNumber, Message, Select, Switch } from '@arco-design/web-react';
import type { Locale } from '@fastgate/core/constants';
import { useGlobalLocale, type GlobalKey } from '../../locale';
import { pickSettings, useSettingsStore } from '../../stores/settings';
import type { AppSettings } from '../../lib/settings';
import { ensureServerMenu } from '../server-menu';
import { themeShades } from '../../lib/theme';
import { LOCALE_OPTIONS, switchLocale } from '../../locale/switch';
import styles from './layout.module.css';

type SwitchKey = 'navbar' | 'menu' | 'topMenu' | 'footer' | 'tabBar' | 'menuFromServer';
const CONTENT_SWITCHES: SwitchKey[] = ['navbar', 'menu', 'topMenu', 'footer', 'tabBar', 'menuFromServer'];

const testButton = (id: string) => ({ 'data-testid': id }) as Record<string, string>;

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // Plain-HTTP deployments have no async clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.settingRow}>
      <span>{label}</span>
      {children}
    </div>
  );
}

export function SettingsDrawer({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { g, locale } = useGlobalLocale();
  const settings = useSettingsStore();
  const update = settings.update;

  const toggle = (key: SwitchKey, value: boolean) => {
    update({ [key]: value } as Partial<AppSettings>);
    // docs/SPEC.md §4.7: turning menuFromServer on fetches the menu.
    if (key === 'menuFromServer' && value) void ensureServerMenu();
  };

  const copySettings = async () => {
    try {
      await copyText(JSON.stringify(pickSettings(useSettingsStore.getState()), null, 2));
      Message.success(g('settings.copySettings.message'));
    } catch {
      Message.error(g('settings.copySettings.failed'));
    }
    onClose();
  };

  return (
    <Drawer
      width={300}
      title={g('settings.title')}
      visible={visible}
      okText={g('settings.copySettings')}
      cancelText={g('settings.close')}
      onOk={() => void copySettings()}
      onCancel={onClose}
      okButtonProps={testButton('settings-copy')}
      cancelButtonProps={testButton('settings-close')}
      data-testid="settings-drawer"
    >
      <Alert content={g('settings.alertContent')} className={styles.settingAlert} />
      <h5 className={styles.settingTitle}>{g('settings.content')}</h5>
      {CONTENT_SWITCHES.map((key) => (
        <Row key={key} label={g(`settings.${key}` as GlobalKey)}>
          <Switch size="small" checked={settings[key]} onChange={(value) => toggle(key, value)} data-testid={`settings-${key}`} />
        </Row>
      ))}
      <Row label={g('settings.menuWidth')}>
        <InputNumber
          size="small"
          style={{ width: 80 }}
          min={120}
          max={500}
          step={10}
          value={settings.menuWidth}
          onChange={(value) => typeof value === 'number' && update({ menuWidth: value })}
          data-testid="settings-menuWidth"
        />
      </Row>
      <h5 className={styles.settingTitle}>{g('settings.otherSettings')}</h5>
      <Row label={g('settings.colorWeak')}>
        <Switch size="small" checked={settings.colorWeak} onChange={(value) => update({ colorWeak: value })} data-testid="settings-colorWeak" />
      </Row>
      <Row label={g('settings.darkMode')}>
        <Switch
          size="small"
          checked={settings.theme === 'dark'}
          onChange={(value) => update({ theme: value ? 'dark' : 'light' })}
          data-testid="settings-darkMode"
        />
      </Row>
      <Row label={g('settings.language')}>
        <Select
          size="small"
          style={{ width: 110 }}
          value={locale}
          options={LOCALE_OPTIONS}
          onChange={(value: Locale) => void switchLocale(value)}
          data-testid="settings-language"
        />
      </Row>
      <Row label={g('settings.themeColor')}>
        {/* Arco's ColorPicker drops data-* props. */}
        <span data-testid="settings-themeColor">
          <ColorPicker
            size="small"
            value={settings.themeColor}
            showText
            disabledAlpha
            // Opens above the swatch, aligned to its right edge: inside the drawer, not against the window's edge.
            triggerProps={{ position: 'tr' }}
            onChange={(value) => typeof value === 'string' && update({ themeColor: value })}
          />
        </span>
      </Row>
      <div className={styles.shades} title={g('settings.themeColor.tip')} data-testid="settings-shades">
        {themeShades(settings.themeColor).map((shade) => (
          <span key={shade} style={{ background: shade }} />
        ))}
      </div>
    </Drawer>
  );
}
