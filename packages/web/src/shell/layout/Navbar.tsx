// Navbar: logo and site title, the menu in top-menu mode, language, theme, settings and the user menu. On a phone
// a menu button opens the menu drawer, and theme and settings fold into the user menu so the bar fits.
import { Avatar, Button, Dropdown, Menu, Tooltip } from '@arco-design/web-react';
import { IconMenu, IconMoonFill, IconPoweroff, IconSettings, IconSunFill, IconUser } from '@arco-design/web-react/icon';
import { useNavigate } from 'react-router';
import { USER_CENTER } from '@fastgate/core/routes';
import { useGlobalLocale } from '../../locale';
import { useSettingsStore } from '../../stores/settings';
import { useUserStore } from '../../stores/user';
import { routePath, loginPath } from '../../lib/navigation';
import { logout } from '../session';
import { useSite } from '../../lib/site';
import { LanguagePicker } from '../../components/LanguagePicker';
import { useIsPhone } from '../../hooks/breakpoint';
import { MenuTree } from './MenuTree';
import styles from './layout.module.css';

/** `onOpenMenu`: the phone layout's menu button (absent when there is no menu to open). */
export function Navbar({ onOpenSettings, onOpenMenu }: { onOpenSettings: () => void; onOpenMenu?: () => void }) {
  const site = useSite();
  const { g } = useGlobalLocale();
  const navigate = useNavigate();
  const theme = useSettingsStore((s) => s.theme);
  const topMenu = useSettingsStore((s) => s.topMenu);
  const menu = useSettingsStore((s) => s.menu);
  const update = useSettingsStore((s) => s.update);
  const info = useUserStore((s) => s.info);
  const role = useUserStore((s) => s.role);
  const phone = useIsPhone();
  const themeLabel = theme === 'light' ? g('navbar.theme.toDark') : g('navbar.theme.toLight');
  const toggleTheme = () => update({ theme: theme === 'light' ? 'dark' : 'light' });

  const onUserMenu = async (key: string) => {
    if (key === 'center') navigate(routePath(USER_CENTER));
    if (key === 'settings') onOpenSettings();
    if (key === 'theme') toggleTheme();
    if (key === 'logout') {
      await logout();
      navigate(loginPath(role));
    }
  };

  return (
    <div className={styles.navbar} data-testid="navbar">
      <div className={styles.navbarLeft}>
        {onOpenMenu && (
          <Button shape="circle" icon={<IconMenu />} aria-label={g('navbar.menu')} onClick={onOpenMenu} data-testid="menu-button" />
        )}
        <img src={site.logo} alt="" className={styles.logo} />
        <span className={styles.siteTitle} data-testid="site-title">
          {site.title}
        </span>
      </div>
      {topMenu && menu && !phone && (
        <div className={styles.navbarMenu}>
          <MenuTree mode="horizontal" />
        </div>
      )}
      <ul className={styles.navbarRight}>
        <li>
          <LanguagePicker compact />
        </li>
        {!phone && (
          <>
            <li>
              <Tooltip content={themeLabel}>
                <Button shape="circle" icon={theme === 'light' ? <IconMoonFill /> : <IconSunFill />} aria-label={themeLabel} onClick={toggleTheme} data-testid="theme-toggle" />
              </Tooltip>
            </li>
            <li>
              <Tooltip content={g('navbar.settings')}>
                <Button shape="circle" icon={<IconSettings />} aria-label={g('navbar.settings')} onClick={onOpenSettings} data-testid="settings-button" />
              </Tooltip>
            </li>
          </>
        )}
        <li>
          <Dropdown
            trigger="click"
            position="br"
            droplist={
              <Menu onClickMenuItem={(key) => void onUserMenu(key)}>
                <Menu.Item key="center" data-testid="user-menu-center">
                  <IconUser className={styles.dropIcon} />
                  {g('navbar.userCenter')}
                </Menu.Item>
                {phone && (
                  <Menu.Item key="theme" data-testid="user-menu-theme">
                    {theme === 'light' ? <IconMoonFill className={styles.dropIcon} /> : <IconSunFill className={styles.dropIcon} />}
                    {themeLabel}
                  </Menu.Item>
                )}
                {phone && (
                  <Menu.Item key="settings" data-testid="user-menu-settings">
                    <IconSettings className={styles.dropIcon} />
                    {g('navbar.settings')}
                  </Menu.Item>
                )}
                <Menu.Item key="logout" data-testid="logout-button">
                  <IconPoweroff className={styles.dropIcon} />
                  {g('navbar.logout')}
                </Menu.Item>
              </Menu>
            }
          >
            <button type="button" className={styles.userButton} data-testid="user-menu" aria-label={info?.name ?? ''}>
              <Avatar size={32}>
                <img alt="" src={info?.avatar || site.avatar} />
              </Avatar>
              <span className={styles.userName}>{info?.name || info?.account}</span>
            </button>
          </Dropdown>
        </li>
      </ul>
    </div>
  );
}
