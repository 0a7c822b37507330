// Get-code button: a sending state, then a countdown (core CAPTCHA_COUNTDOWN_S) before it can resend.
import { useEffect, useState } from 'react';
import { Button, Message } from '@arco-design/web-react';
import { CAPTCHA_COUNTDOWN_S } from '@fastgate/core/constants';
import { useGlobalLocale } from '../locale';

interface Props {
  /** Validates its inputs (rejecting when invalid) and requests the code. */
  send: () => Promise<unknown>;
  testId?: string;
  size?: 'default' | 'large';
}

export function CaptchaButton({ send, testId = 'captcha-button', size }: Props) {
  const { g } = useGlobalLocale();
  const [sending, setSending] = useState(false);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const onClick = async () => {
    setSending(true);
    try {
      await send();
      Message.success(g('captcha.sent'));
      setLeft(CAPTCHA_COUNTDOWN_S);
    } catch {
      // Invalid input is shown by the form; request errors by the HTTP client.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      type="outline"
      size={size}
      loading={sending}
      disabled={left > 0}
      onClick={() => void onClick()}
      data-testid={testId}
      // Never shrunk below its text by the row it sits in ("60s 后重新获取" is wider than "获取验证码").
      style={{ minWidth: 112, flexShrink: 0 }}
    >
      {sending ? g('captcha.sending') : left > 0 ? g('captcha.resend', { seconds: left }) : g('captcha.get')}
    </Button>
  );
}
