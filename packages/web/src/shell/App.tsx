import { useEffect, useState } from 'react';
import { ConfigProvider } from '@arco-design/web-react';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import enUS from '@arco-design/web-react/es/locale/en-US';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { registerSessionHooks } from '../api/http';
import { useGlobalLocale } from '../locale';
import { setNavigator } from '../lib/navigation';
import { queryClient } from '../lib/query';
import { createRouter } from './router';
import { loadUserInfo, logout } from './session';
import { askStepUp } from './step-up';

/** Wires what lower layers call back into (the HTTP client, navigation from outside React), then routes. */
function startShell() {
  // Before the router: creating it runs the first screen's guards, which already send requests.
  registerSessionHooks({ logout, reloadUser: () => loadUserInfo(true), askStepUp });
  const router = createRouter();
  setNavigator(
    (to, options) => void router.navigate(to, options),
    () => {
      const { navigation, location } = router.state;
      const at = navigation.location ?? location;
      return at.pathname + at.search;
    },
  );
  return router;
}

export function App() {
  const [router] = useState(startShell);
  const { locale } = useGlobalLocale();
  // The stored language applies from the first render, not only after a switch.
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale === 'en-US' ? enUS : zhCN}>
        <RouterProvider router={router} />
      </ConfigProvider>
    </QueryClientProvider>
  );
}
