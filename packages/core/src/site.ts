// Public site identity (docs/SPEC.md §3.9 site config, §9 defaults) as `POST /open/site/config` returns it.
import type { SiteConfigFields } from './entities/site-config';

/** The public identity of a site: the fields of its config anyone may see (no mail server, no grant). */
export const PUBLIC_SITE_FIELDS = [
  'domain',
  'title',
  'logo',
  'favicon',
  'avatar',
  'bg_img',
  'copyright',
  'jump_url',
  'keywords',
  'description',
  'icp_beian',
  'ga_beian',
  'register_tips',
  'support_email_suffix',
  'carousel1_title',
  'carousels1',
  'carousel2_title',
  'carousels2',
  'announcement_title',
  'announcement_more_url',
  'announcements',
  'document_title',
  'document_more_url',
  'documents',
] as const;
export type PublicSiteConfig = Pick<SiteConfigFields, (typeof PUBLIC_SITE_FIELDS)[number]>;

/** docs/SPEC.md §9: what the console shows when no site config matches the domain. */
export const DEFAULT_SITE: PublicSiteConfig = {
  domain: '',
  title: '智元 Fast API',
  logo: '/logo.png',
  favicon: '/favicon.ico',
  avatar: '/avatar.png',
  bg_img: '/bgimg.jpg',
  copyright: `© ${new Date().getFullYear()} 智元 Fast API`,
  jump_url: '',
  keywords: 'AI, LLM, API Gateway, OpenAI',
  description: '多模型 AI 网关: 一个 API 接入所有大模型',
  icp_beian: '',
  ga_beian: '',
  register_tips: '',
  support_email_suffix: [],
  carousel1_title: '赞助商',
  carousels1: [],
  carousel2_title: '作者',
  carousels2: [],
  announcement_title: '公告',
  announcement_more_url: '',
  announcements: [{ content: '欢迎使用智元 Fast API', jump_url: '' }],
  document_title: '使用指南',
  document_more_url: '',
  documents: [{ title: 'OpenAI 兼容接口', jump_url: '' }],
};

/** Fill empty fields of a stored config with the defaults. */
export function withSiteDefaults(partial: Partial<PublicSiteConfig>): PublicSiteConfig {
  const out = { ...DEFAULT_SITE };
  for (const [k, v] of Object.entries(partial) as [keyof PublicSiteConfig, unknown][]) {
    const empty = v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
    if (!empty) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}
