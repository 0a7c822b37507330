// The signed-in person's own profile and security settings (docs/SPEC.md §2.4 user center, §5).
import { z } from 'zod';
import type { Role } from '../constants';
import { codeField, emailField, nameField, passwordField, phoneField, profileField, strongPasswordField } from './fields';

/** docs/SPEC.md §3.1 session user fields, as `GET /user/info` returns them. */
export interface SessionUser {
  user_id: number;
  account: string;
  name: string;
  avatar: string;
  email: string;
  phone: string;
  profile: string;
  created_at: string;
  role: Role;
  vip_level_name: string;
  vip_level_color: string;
  rid: number;
  /** The server's time zone (IANA): wire times and "today" are in it, so the console computes date ranges there. */
  time_zone: string;
  /** Two-factor sign-in is required for the role and not set up yet: only the security tab works until it is. */
  two_factor_setup: boolean;
  /** Resellers: their floor as a fraction of list price; their groups and VIP levels may not price below it. */
  floor?: number;
}

export const updateInfoSchema = z.object({ name: nameField, profile: profileField.optional() });

export const changePasswordSchema = z.object({
  old_password: passwordField,
  new_password: strongPasswordField,
});

export const changeEmailSchema = z.object({ email: emailField, code: codeField, password: passwordField });
export const changePhoneSchema = z.object({ phone: phoneField, code: codeField, password: passwordField });

export const certificationCreateSchema = z.object({
  real_name: z.string().trim().min(2).max(30),
  id_type: z.enum(['id_card', 'passport', 'other']).default('id_card'),
  id_number: z.string().trim().regex(/^[A-Za-z0-9]{6,30}$/, 'field.id_card'),
  remark: z.string().max(200).optional(),
});

export interface Certification {
  id: string;
  real_name: string;
  id_type: string;
  /** Masked except the first 3 and last 4 characters. */
  id_number: string;
  remark: string;
  status: number;
  created_at: string;
  updated_at: string;
}
