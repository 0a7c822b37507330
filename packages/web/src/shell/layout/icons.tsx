import type { ReactElement } from 'react';
import {
  IconApps, IconCalendar, IconCommon, IconDashboard, IconFile, IconIdcard, IconLock, IconNav, IconRobot,
  IconSettings, IconStorage, IconTrophy, IconUser, IconUserGroup, IconBranch, IconCode,
} from '@arco-design/web-react/icon';

/** Menu icons by area (and by the screen shown for one-screen areas). */
const icons: Record<string, () => ReactElement> = {
  dashboard: () => <IconDashboard />,
  myModel: () => <IconRobot />,
  model: () => <IconRobot />,
  myGroup: () => <IconUserGroup />,
  key: () => <IconLock />,
  agent: () => <IconBranch />,
  corp: () => <IconCommon />,
  group: () => <IconUserGroup />,
  user: () => <IconUser />,
  app: () => <IconApps />,
  appKey: () => <IconCode />,
  finance: () => <IconStorage />,
  task: () => <IconCalendar />,
  log: () => <IconFile />,
  sys: () => <IconSettings />,
  vip: () => <IconTrophy />,
  license: () => <IconIdcard />,
  'user.center': () => <IconUser />,
  'app.key': () => <IconCode />,
  'my.model': () => <IconRobot />,
  'my.group': () => <IconUserGroup />,
  'vip.center': () => <IconTrophy />,
  'dashboard.workplace': () => <IconDashboard />,
};

export function menuIcon(name: string, area?: string): ReactElement {
  const icon = icons[area ?? ''] ?? icons[name] ?? icons[name.split('.')[0]];
  return icon ? icon() : <IconNav />;
}
