// The current screen's name: its menu entry, as the breadcrumb, the tab and the page title show it. Lists
// and detail cards take it as their title, so one screen has one name everywhere.
import { useCurrentRoute } from '../shell/current-route';
import { useGlobalLocale } from '../locale';

export function useScreenTitle(): string {
  const route = useCurrentRoute();
  const { tk } = useGlobalLocale();
  return route ? tk(`menu.${route.name}`) : '';
}
