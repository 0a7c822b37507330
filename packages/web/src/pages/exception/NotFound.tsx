// The not-found screen (docs/SPEC.md §2.1): 404 art and a button back home; the whole page when signed out,
// `embedded` in the layout's content area when signed in.
import { Button, Result } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import { useGlobalLocale } from '../../locale';
import styles from './not-found.module.css';

export default function NotFound({ embedded = false }: { embedded?: boolean }) {
  const { g } = useGlobalLocale();
  const navigate = useNavigate();
  return (
    <div className={embedded ? styles.embedded : styles.wrapper} data-testid="not-found">
      <Result
        status="404"
        title={g('notFound.title')}
        subTitle={g('notFound.subTitle')}
        extra={
          <Button type="primary" data-testid="not-found-back" onClick={() => navigate('/')}>
            {g('notFound.back')}
          </Button>
        }
      />
    </div>
  );
}
