import { useEffect, useState } from 'react';
import { ConfigProvider } from '@arco-design/web-react';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import enUS from '@arco-design/web-react/es/locale/en-US';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { useGlobalLocale } from '../locale';
import { setNavigator } from './navigation';
import { queryClient } from './query';
import { createRouter } from './router';

function createAppRouter() {
  const router = createRouter();
  setNavigator((to, options) => void router.navigate(to, options));
  return router;
}

export function App() {
  const [router] = useState(createAppRouter);
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
