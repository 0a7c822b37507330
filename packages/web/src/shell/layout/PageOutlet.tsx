import { Suspense } from 'react';
import { Spin } from '@arco-design/web-react';
import type { RouteName } from '@fastgate/core/routes';
import { pages } from '../pages';

/** Renders the lazy page of a route (already preloaded by its guard). */
export function PageOutlet({ name }: { name: RouteName }) {
  const { Component } = pages[name];
  return (
    <Suspense fallback={<Spin dot style={{ display: 'block', margin: '80px auto' }} />}>
      <Component />
    </Suspense>
  );
}
