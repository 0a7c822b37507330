// The root of every screen: progress bar and scroll on navigation, site identity, theme.
import { useEffect } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router';
import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useGlobalLocale } from '../locale';
import { applyFavicon, useSite } from '../lib/site';
import { useApplyTheme } from '../lib/theme';
import { useCurrentRoute } from './current-route';

NProgress.configure({ showSpinner: false });

export function Root() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const site = useSite();
  const { tk } = useGlobalLocale();
  useApplyTheme();

  useEffect(() => {
    if (navigation.state === 'idle') NProgress.done();
    else NProgress.start();
  }, [navigation.state]);

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);

  const route = useCurrentRoute();
  const pageTitle = route ? tk(`menu.${route.name}`) : '';
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} - ${site.title}` : site.title;
    applyFavicon(site.favicon);
  }, [pageTitle, site.title, site.favicon]);

  return <Outlet />;
}
