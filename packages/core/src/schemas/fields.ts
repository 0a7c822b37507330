// Field rules of docs/SPEC.md §5, shared by server validation and web forms. Custom messages are message keys.
import { z } from 'zod';

export const nameField = z.string().trim().regex(/^[\u4e00-\u9fa5A-Za-z0-9_-]{2,30}$/, 'field.name');
export const emailField = z.string().trim().max(100).email('field.email');
export const phoneField = z.string().trim().regex(/^\+?[0-9]{6,20}$/, 'field.phone');
export const codeField = z.string().trim().regex(/^\d{6}$/, 'field.code');
/** Any password: at least 6 characters (login, register, admin-set). */
export const passwordField = z.string().min(6, 'field.password_min').max(64);
/** New password in the security settings: digits, upper and lower letters and symbols, no spaces. */
export const strongPasswordField = z
  .string()
  .max(64)
  .refine((p) => p.length >= 6 && /\d/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p) && /[^A-Za-z0-9\s]/.test(p) && !/\s/.test(p), 'field.password_strong');
export const profileField = z.string().max(200, 'field.profile');
export const domainField = z.string().trim().max(253).optional();
