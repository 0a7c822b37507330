// Site config detail (`/sys/site/config/detail?id=`, docs/SPEC.md §2.2): the config read-only in the form's
// sections, with its approval state, and the way to edit it. The mail password is never shown, only whether one is set.
import type { ReactNode } from 'react';
import { Descriptions, Image, Space, Tag, Typography } from '@arco-design/web-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Status } from '@fastgate/core/constants';
import { SITE_CONFIG_PREFIX, SiteApproval, type SiteConfig } from '@fastgate/core/entities/site-config';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../../components/Permission';
import { usd } from '../../../components/Usd';
import { recordProblem } from '../../../components/record-state';
import { DetailCard } from '../../../components/DetailCard';
import { useResourceDetail } from '../../../hooks/resource';
import { backTo, openedFrom, routePath } from '../../../lib/navigation';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import locale from './locale';
import { detailColumns } from '../../../lib/layout';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;
type Row = { label: ReactNode; value: ReactNode };

const text = (v: string | number | undefined | null): ReactNode => (v === '' || v == null ? '-' : v);
const image = (src: string) => (src ? <Image src={src} height={32} alt="" /> : '-');
const link = (label: string, url: string) => (url ? `${label} → ${url}` : label);

function Section({ title, data, testId }: { title: string; data: Row[]; testId: string }) {
  // Arco's Descriptions drops data-* props: the test id sits on a box around it.
  return (
    <div data-testid={testId}>
      <Descriptions title={title} column={detailColumns(2)} border data={data} style={{ marginBottom: 24 }} />
    </div>
  );
}

/** A list of `{…, jump_url}` items (carousels, announcements, documents), one line each. */
function Items({ items }: { items: readonly string[] }) {
  if (items.length === 0) return <>-</>;
  return (
    <Space direction="vertical" size={2}>
      {items.map((item, i) => (
        <Typography.Text key={i}>{item}</Typography.Text>
      ))}
    </Space>
  );
}

function sections(site: SiteConfig, t: T, status: string, showOwner: boolean): { key: string; title: string; data: Row[] }[] {
  const approved = site.approved === SiteApproval.Approved;
  return [
    {
      key: 'identity',
      title: t('site.section.identity'),
      data: [
        { label: t('site.domain'), value: <span data-testid="site-detail-domain">{site.domain}</span> },
        { label: t('site.approval'), value: <Tag color={approved ? 'green' : 'orange'}>{t(approved ? 'site.approval.approved' : 'site.approval.pending')}</Tag> },
        { label: t('site.title'), value: <span data-testid="site-detail-title">{text(site.title)}</span> },
        ...(showOwner ? [{ label: t('site.userId'), value: site.user_id }] : []),
        { label: t('site.logo'), value: image(site.logo) },
        { label: t('site.favicon'), value: image(site.favicon) },
        { label: t('site.avatar'), value: image(site.avatar) },
        { label: t('site.bgImg'), value: image(site.bg_img) },
        { label: t('site.copyright'), value: text(site.copyright) },
        { label: t('site.jumpUrl'), value: text(site.jump_url) },
        { label: t('site.keywords'), value: text(site.keywords) },
        { label: t('site.description'), value: text(site.description) },
        { label: t('site.icpBeian'), value: text(site.icp_beian) },
        { label: t('site.gaBeian'), value: text(site.ga_beian) },
      ],
    },
    {
      key: 'register',
      title: t('site.section.register'),
      data: [
        { label: t('site.registerTips'), value: text(site.register_tips) },
        { label: t('site.grantQuota'), value: usd(site.grant_quota) },
        { label: t('site.quotaExpiresAt'), value: site.quota_expires_at ? `${site.quota_expires_at} ${t('site.minutes')}` : '-' },
        { label: t('site.emailSuffix'), value: site.support_email_suffix.length ? site.support_email_suffix.join(', ') : '-' },
        { label: t('site.registerWelcome'), value: text(site.register_welcome) },
      ],
    },
    {
      key: 'mail',
      title: t('site.section.mail'),
      data: [
        { label: t('site.host'), value: text(site.host) },
        { label: t('site.port'), value: text(site.port) },
        { label: t('site.userName'), value: text(site.user_name) },
        { label: t('site.password'), value: site.password_set ? t('site.detail.passwordSet') : '-' },
        { label: t('site.fromName'), value: text(site.from_name) },
      ],
    },
    {
      key: 'home',
      title: t('site.section.home'),
      data: [
        { label: t('site.carousel1Title'), value: text(site.carousel1_title) },
        { label: t('site.carousels1'), value: <Items items={site.carousels1.map((c) => link(c.image_url, c.jump_url))} /> },
        { label: t('site.carousel2Title'), value: text(site.carousel2_title) },
        { label: t('site.carousels2'), value: <Items items={site.carousels2.map((c) => link(c.image_url, c.jump_url))} /> },
        { label: t('site.announcementTitle'), value: text(site.announcement_title) },
        { label: t('site.announcementMoreUrl'), value: text(site.announcement_more_url) },
        { label: t('site.announcements'), value: <Items items={site.announcements.map((a) => link(a.content, a.jump_url))} /> },
        { label: t('site.documentTitle'), value: text(site.document_title) },
        { label: t('site.documentMoreUrl'), value: text(site.document_more_url) },
        { label: t('site.documents'), value: <Items items={site.documents.map((d) => link(d.title, d.jump_url))} /> },
      ],
    },
    {
      key: 'other',
      title: t('site.section.other'),
      data: [
        { label: t('site.rechargeTips'), value: text(site.recharge_tips) },
        { label: t('site.status'), value: status },
        { label: t('site.remark'), value: text(site.remark) },
        { label: t('site.createdAt'), value: text(site.created_at) },
        { label: t('site.updatedAt'), value: text(site.updated_at) },
      ],
    },
  ];
}

export default function SiteConfigDetail() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const showOwner = usePermission(ADMIN_ONLY);
  const id = search.get('id');
  const detail = useResourceDetail<SiteConfig>(SITE_CONFIG_PREFIX, id);
  const problem = recordProblem(id, detail);
  const site = detail.data;
  const back = () => navigate(backTo(location.state, routePath('sys.site.config')));
  const edit = () => navigate(`${routePath('sys.site.update')}?id=${encodeURIComponent(id ?? '')}`, { state: openedFrom() });

  return (
    <DetailCard subject={site?.domain} problem={problem} loading={detail.isFetching} onBack={back} onEdit={site && edit} testId="site-detail">
      {site &&
        sections(site, t, g(`resource.status.${site.status === Status.Disabled ? Status.Disabled : Status.Normal}`), showOwner).map((s) => (
          <Section key={s.key} title={s.title} data={s.data} testId={`site-detail-${s.key}`} />
        ))}
    </DetailCard>
  );
}
