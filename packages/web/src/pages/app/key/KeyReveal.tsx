// New keys are shown in full exactly once (after an app's first key, a created key or a batch), with a
// copy button and the warning that they cannot be viewed again. Closing calls `onClose`.
import { Alert, Button, Input, Modal, Space, Typography } from '@arco-design/web-react';
import { CopyButton } from '../../../components/CopyButton';
import { usePageLocale } from '../../../locale';
import locale from './locale';

export interface KeyRevealProps {
  /** The new keys; the modal is open while there are any. */
  keys: readonly string[];
  onClose: () => void;
}

export function KeyReveal({ keys, onClose }: KeyRevealProps) {
  const t = usePageLocale(locale);
  const many = keys.length > 1;
  const text = keys.join('\n');
  return (
    <Modal
      visible={keys.length > 0}
      title={many ? t('appKey.reveal.titleMany', { count: keys.length }) : t('appKey.reveal.title')}
      onCancel={onClose}
      maskClosable={false}
      escToExit={false}
      closable={false}
      style={{ width: 640 }}
      footer={
        <Space>
          <CopyButton fetch={text} type="outline" size="default" data-testid="key-reveal-copy">
            {many ? t('appKey.reveal.copyAll') : t('appKey.reveal.copy')}
          </CopyButton>
          <Button type="primary" onClick={onClose} data-testid="key-reveal-close">
            {t('appKey.reveal.close')}
          </Button>
        </Space>
      }
    >
      <div data-testid="key-reveal">
      <Alert type="warning" content={t('appKey.reveal.warning')} style={{ marginBottom: 16 }} />
      {many ? (
        <Input.TextArea readOnly value={text} autoSize={{ minRows: 3, maxRows: 12 }} style={{ fontFamily: 'monospace' }} data-testid="key-reveal-keys" />
      ) : (
        <Typography.Paragraph code style={{ wordBreak: 'break-all', fontSize: 14 }} data-testid="key-reveal-value">
          {text}
        </Typography.Paragraph>
      )}
      </div>
    </Modal>
  );
}
