// Step-up (server code 71): one modal asks for a fresh authenticator code, proves it with
// `POST /auth/step-up`, and tells the HTTP client to send the refused request again. Every screen gets it.
import { Input, Modal } from '@arco-design/web-react';
import { authApi } from '../api/auth';
import { i18n } from '../locale';

let asking: Promise<boolean> | null = null;

/** Resolves true once the session has stepped up, false when the person cancels. One modal at a time. */
export function askStepUp(): Promise<boolean> {
  asking ??= new Promise<boolean>((resolve) => {
    let code = '';
    let busy = false;
    /** Wrong codes are toasted by the HTTP client and keep the modal open (a rejected onOk does). */
    const verify = async () => {
      if (busy) throw new Error('busy');
      busy = true;
      try {
        await authApi.stepUp(code.trim());
        resolve(true);
      } finally {
        busy = false;
      }
    };
    const modal = Modal.confirm({
      title: i18n.t('http.stepUp.title'),
      content: (
        <div>
          <p>{i18n.t('http.stepUp.content')}</p>
          <Input
            autoFocus
            maxLength={32}
            placeholder={i18n.t('http.stepUp.placeholder')}
            onChange={(value) => (code = value)}
            onPressEnter={() => void verify().then(() => modal.close(), () => undefined)}
            data-testid="step-up-code"
          />
        </div>
      ),
      okText: i18n.t('http.stepUp.ok'),
      okButtonProps: { 'data-testid': 'step-up-ok' } as Record<string, string>,
      maskClosable: false,
      onOk: verify,
      onCancel: () => resolve(false),
      afterClose: () => (asking = null),
    });
  });
  return asking;
}
