// Table types (kysely). snake_case like the wire; times are epoch milliseconds; money is integer quota.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  user_id: Generated<number>;
  role: 'admin' | 'reseller' | 'user';
  account: string;
  name: string;
  email: string;
  phone: string;
  avatar: string;
  profile: string;
  password_hash: string;
  rid: number;
  quota: number;
  used_quota: number;
  quota_expires_at: number | null;
  status: number;
  remark: string;
  login_ip: string;
  login_time: number | null;
  login_domain: string;
  failed_logins: number;
  locked_until: number | null;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  role: 'admin' | 'reseller' | 'user';
  ip: string;
  expires_at: number;
  created_at: number;
}

export interface VerifyCodesTable {
  id: string;
  /** Email address or phone number. */
  target: string;
  action: string;
  channel: string;
  code_hash: string;
  attempts: number;
  consumed: number;
  expires_at: number;
  created_at: number;
}

export interface SysConfigsTable {
  section: string;
  value: string;
  updated_at: number;
}

export interface SiteConfigsTable {
  id: string;
  user_id: number;
  domain: string;
  title: string;
  logo: string;
  favicon: string;
  avatar: string;
  bg_img: string;
  copyright: string;
  jump_url: string;
  keywords: string;
  description: string;
  icp_beian: string;
  ga_beian: string;
  register_tips: string;
  register_welcome: string;
  grant_quota: number;
  /** Minutes after registration (reference §3.9), 0 = never. */
  quota_expires_at: number;
  support_email_suffix: string;
  mail_host: string;
  mail_port: number;
  mail_user_name: string;
  /** Ciphertext (security/secrets.ts). */
  mail_password: string;
  mail_from_name: string;
  carousel1_title: string;
  carousels1: string;
  carousel2_title: string;
  carousels2: string;
  announcement_title: string;
  announcement_more_url: string;
  announcements: string;
  document_title: string;
  document_more_url: string;
  documents: string;
  recharge_tips: string;
  remark: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

export interface CertificationsTable {
  id: string;
  user_id: number;
  real_name: string;
  id_type: string;
  /** Ciphertext of the ID number. */
  id_number: string;
  remark: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

export interface CorpsTable {
  id: string;
  name: string;
  code: string;
  sort: number;
  /** 0 | 1: booleans are integers so SQLite and PostgreSQL agree. */
  is_public: number;
  remark: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verify_codes: VerifyCodesTable;
  sys_configs: SysConfigsTable;
  site_configs: SiteConfigsTable;
  certifications: CertificationsTable;
  corps: CorpsTable;
}

export type DB = Kysely<Database>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SiteConfigRow = Selectable<SiteConfigsTable>;
export type CorpRow = Selectable<CorpsTable>;
