// The three login screens (docs/SPEC.md §2.1): /login (user), /admin, /reseller share this page with a channel.
import { useState } from 'react';
import { Carousel, Spin } from '@arco-design/web-react';
import type { Channel } from '@fastgate/core/constants';
import { useSite } from '../../lib/site';
import { LanguagePicker } from '../../components/LanguagePicker';
import { usePageLocale } from '../../locale';
import { AccountForm } from './AccountForm';
import { LoginForm } from './LoginForm';
import locale from './locale';
import { useLoginOptions } from './use-login-options';
import styles from './login.module.css';

type View = 'login' | 'register' | 'forget';
const SLIDES = [1, 2, 3] as const;

function Banner() {
  const t = usePageLocale(locale);
  return (
    <Carousel className={styles.carousel} autoPlay animation="fade" indicatorType="slider" showArrow="never">
      {SLIDES.map((n) => (
        <div key={n} className={styles.slide}>
          <h2>{t(`banner.${n}.title`)}</h2>
          <p>{t(`banner.${n}.sub`)}</p>
          <div className={styles.illustration} aria-hidden>
            <span />
            <span />
            <span />
          </div>
        </div>
      ))}
    </Carousel>
  );
}

export default function LoginPage({ channel }: { channel: Channel }) {
  const t = usePageLocale(locale);
  const site = useSite();
  const { options, loading } = useLoginOptions(channel);
  const [view, setView] = useState<View>('login');
  const [account, setAccount] = useState<string>();

  const backToLogin = (email?: string) => {
    if (email) setAccount(email);
    setView('login');
  };
  const title = view === 'login' ? t(`login.title.${channel}`) : t(`${view}.title`);

  return (
    <div className={styles.page} data-testid={`login-page-${channel}`}>
      <aside className={styles.banner} style={{ backgroundImage: `url(${site.bg_img})` }}>
        <div className={styles.brand}>
          <img src={site.logo} alt="" />
          <span>{site.title}</span>
        </div>
        <Banner />
      </aside>
      <main className={styles.content}>
        <div className={styles.topBar}>
          <LanguagePicker />
        </div>
        <div className={styles.card}>
          <div className={styles.cardBrand}>
            <img src={site.logo} alt="" />
            <span>{site.title}</span>
          </div>
          <h1 className={styles.title} data-testid="login-title">
            {title}
          </h1>
          <p className={styles.subtitle}>{t('login.subtitle')}</p>
          <Spin loading={loading} block>
            {view === 'login' ? (
              <LoginForm
                key={account ?? ''}
                channel={channel}
                options={options}
                initialAccount={account}
                onRegister={() => setView('register')}
                onForget={() => setView('forget')}
              />
            ) : (
              <AccountForm key={view} mode={view} channel={channel} onDone={backToLogin} onBack={() => backToLogin()} />
            )}
          </Spin>
        </div>
        <footer className={styles.footer}>{site.copyright}</footer>
      </main>
    </div>
  );
}
