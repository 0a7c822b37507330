import { Suspense } from 'react';
import { Spin } from '@arco-design/web-react';
import { pages } from '../pages';

/** Renders the lazy page of a route (already preloaded by its guard). */
export function PageOutlet({ name }: { name: string }) {
  const page = pages[name];
  if (!page) return null;
  const { Component } = page;
  return (
    <Suspense fallback={<Spin dot style={{ display: 'block', margin: '80px auto' }} />}>
      <Component />
    </Suspense>
  );
}
