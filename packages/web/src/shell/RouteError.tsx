import { Button, Result } from '@arco-design/web-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import NotFound from '../pages/exception/NotFound';
import { useGlobalLocale } from '../locale';

/** Guards answer 404 for refused routes; anything else is a crash of a screen. */
export function RouteError() {
  const error = useRouteError();
  const { g } = useGlobalLocale();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Result
      status="error"
      title={g('error.title')}
      subTitle={message}
      style={{ paddingTop: 120 }}
      extra={<Button type="primary" onClick={() => window.location.reload()}>{g('tabs.reload')}</Button>}
    />
  );
}
