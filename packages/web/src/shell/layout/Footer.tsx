import { Layout } from '@arco-design/web-react';
import { useSite } from '../../lib/site';
import styles from './layout.module.css';

export function Footer() {
  const site = useSite();
  return (
    <Layout.Footer className={styles.footer} data-testid="layout-footer">
      <span>{site.copyright}</span>
      {site.icp_beian && (
        <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
          {site.icp_beian}
        </a>
      )}
      {site.ga_beian && <span>{site.ga_beian}</span>}
    </Layout.Footer>
  );
}
