// `/key/create` and `/key/update?id=` for resellers and users: the app-key list with its create or edit modal open
// (shell/pages.ts picks these or the model-key form by role). An update without an id has nothing to edit.
import { useNavigate, useSearchParams } from 'react-router';
import { Card } from '@arco-design/web-react';
import { RecordUnavailable } from '../../../components/RecordUnavailable';
import { routePath } from '../../../lib/navigation';
import { useScreenTitle } from '../../../hooks/screen-title';
import AppKeyList from './list';

export const CreateAppKey = () => <AppKeyList open="create" />;

export function UpdateAppKey() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const title = useScreenTitle();
  if (!search.get('id'))
    return (
      <Card bordered={false} title={title}>
        <RecordUnavailable problem="missingId" onBack={() => navigate(routePath('app.key'))} />
      </Card>
    );
  return <AppKeyList open="update" />;
}
