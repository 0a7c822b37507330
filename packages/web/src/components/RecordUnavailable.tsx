// The empty state of a record screen with nothing to show (components/record-state.ts says why): it says so
// and offers the way back, instead of a spinner or a blank form.
import { Button, Result, Spin } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useGlobalLocale } from '../locale';
import type { RecordProblem } from './record-state';

export function RecordUnavailable({ problem, onBack }: { problem: RecordProblem; onBack: () => void }) {
  const { g } = useGlobalLocale();
  return (
    <Result
      status="404"
      title={g(`resource.${problem}`)}
      subTitle={problem === 'loadFailed' ? g('resource.unavailable.hint') : undefined}
      extra={
        <Button type="primary" onClick={onBack} data-testid="record-unavailable-back">
          {g('resource.backToList')}
        </Button>
      }
      data-testid={`record-unavailable-${problem}`}
    />
  );
}

/**
 * A detail screen's body: the empty state when there is no record to show, else the record under a
 * spinner while it loads. (Arco's Spin spins without children, so it only wraps a record to wait for.)
 */
export function RecordBody({ problem, loading, onBack, children }: { problem: RecordProblem | undefined; loading: boolean; onBack: () => void; children: ReactNode }) {
  if (problem) return <RecordUnavailable problem={problem} onBack={onBack} />;
  return (
    <Spin loading={loading} style={{ display: 'block' }}>
      {children}
    </Spin>
  );
}
