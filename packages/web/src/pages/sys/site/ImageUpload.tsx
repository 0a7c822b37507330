// An image URL field with an upload button and a preview: the file goes to `POST /sys/site/upload`
// (sniffed and stored by the server), the answer's URL becomes the value.
import { useState } from 'react';
import { Button, Input, Message, Space, Upload } from '@arco-design/web-react';
import { IconUpload } from '@arco-design/web-react/icon';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from '@fastgate/core/entities/site-config';
import { http } from '../../../api/http';
import { API } from '../../../api/paths';
import type { Envelope } from '@fastgate/core/api';
import { usePageLocale } from '../../../locale';
import locale from './locale';

export interface ImageUploadProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Preview box size in px. */
  preview?: { width: number; height: number };
  testId?: string;
}

async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await http.post<Envelope<{ url: string }>>(`${API}/sys/site/upload`, form);
  return res.data.data.url;
}

export function ImageUpload({ value, onChange, preview = { width: 64, height: 64 }, testId }: ImageUploadProps) {
  const t = usePageLocale(locale);
  const [busy, setBusy] = useState(false);
  return (
    <Space align="start" size={12} wrap>
      <Space direction="vertical" size={6}>
        <Input value={value} onChange={(v) => onChange?.(v)} allowClear placeholder={t('site.urlPlaceholder')} style={{ width: 320 }} data-testid={testId} />
        <Upload
          accept={UPLOAD_ACCEPT}
          showUploadList={false}
          customRequest={({ file }) => {
            if (file.size > UPLOAD_MAX_BYTES) {
              Message.error(t('site.upload.tooLarge'));
              return;
            }
            setBusy(true);
            uploadImage(file)
              .then((url) => {
                onChange?.(url);
                Message.success(t('site.uploaded'));
              })
              .catch(() => undefined) // the HTTP client toasted the server's message
              .finally(() => setBusy(false));
          }}
        >
          <Button icon={<IconUpload />} loading={busy} size="small" data-testid={testId ? `${testId}-upload` : undefined}>
            {t('site.upload')}
          </Button>
        </Upload>
      </Space>
      <div
        style={{
          ...preview,
          border: '1px dashed var(--color-border-3)',
          borderRadius: 4,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          background: 'var(--color-fill-1)',
        }}
      >
        {value && <img src={value} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} data-testid={testId ? `${testId}-preview` : undefined} />}
      </div>
    </Space>
  );
}
