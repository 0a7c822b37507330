// The empty state of a record screen with nothing to show (components/record-state.ts says why): it says so
// and offers the way back, instead of a spinner or a blank form.
import { Button, Result } from '@arco-design/web-react';
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
