// License: what an installation may run (users, apps, nodes, expiry), signed with Ed25519 (docs/SPEC.md §3.8 "License").
import { z } from 'zod';
import { boolField, intField } from '../schemas/encodings';
import { INT4_MAX, boolFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { expiresAtField } from '../schemas/usage-limits';
import { emailField } from '../schemas/fields';
import { defineResource, flag, json, type Fields } from '../resource';

export const LICENSE_PREFIX = '/license';
export const LICENSE_INFO_PATH = '/sys/license/info';
export const LICENSE_INSTALL_PATH = '/sys/license/install';

/** 1 trial, 2 commercial. */
export const LicenseType = { Trial: 1, Commercial: 2 } as const;

const licenseNodeSchema = z.object({
  ip: z.string().trim().max(64).default(''),
  mac: z.string().trim().max(64).default(''),
  node_id: z.string().trim().max(128).default(''),
});
export type LicenseNode = z.infer<typeof licenseNodeSchema>;

const count = intField(0, 100_000_000).default(0);

const licenseBase = z.object({
  name: name100,
  email: z.union([z.literal(''), emailField]).default(''),
  phone: z.string().trim().max(32).default(''),
  type: z.union([z.literal(LicenseType.Trial), z.literal(LicenseType.Commercial)]).default(LicenseType.Commercial),
  /** Nodes the installation may run on; 0 = unlimited. */
  node: count,
  /** 0 = unlimited. */
  user_count: count,
  app_count: count,
  expires_at: expiresAtField.default(''),
  is_node_visible: boolField.default(false),
  remark: remarkField.default(''),
  nodes: z.array(licenseNodeSchema).max(100).default([]),
  status: statusField.default(1),
});

/** The license resource. Its expiry is stored as epoch ms (the server converts it in its time zone); the signature is the server's. */
export const licenseResource = defineResource({
  prefix: LICENSE_PREFIX,
  fields: licenseBase,
  columns: { is_node_visible: flag, nodes: json<LicenseNode[]>(() => []) },
  virtual: ['expires_at'],
});
export type LicenseFields = Fields<typeof licenseResource>;

export const licenseCreateSchema = licenseBase;
export type LicenseCreate = z.infer<typeof licenseCreateSchema>;
export const licenseUpdateSchema = licenseBase.extend({ id: idField });
export const licensePageSchema = pageSchema.extend({ name: textFilter, email: textFilter, type: z.coerce.number().int().min(0).max(INT4_MAX).optional(), is_node_visible: boolFilter, status: statusFilter });

/** The secret key: at least a prefix, a payload and a signature; the server says "must be complete" otherwise. */
export const licenseInstallSchema = z.object({ secret_key: z.string().trim().min(1).max(20_000) });

/** An issued license on the wire: its fields, its signature and the record times. */
export type License = LicenseFields & {
  id: string;
  /** base64url Ed25519 signature of the canonical payload. */
  sign: string;
  /** The encoded license an installation pastes into license info. */
  secret_key: string;
  created_at: string;
  updated_at: string;
};

/** License state: none installed (no limits), or installed and valid, expired, invalid or exceeded. */
export type LicenseState = 'none' | 'valid' | 'expired' | 'invalid' | 'exceeded';

export interface LicenseInfo {
  state: LicenseState;
  /** The installed license's fields (none installed: null). */
  license: Omit<License, 'secret_key' | 'sign' | 'status' | 'created_at' | 'updated_at'> | null;
  installed_at: string;
  usage: { users: number; apps: number; nodes: number };
  /** Which limits are exceeded: 'users' | 'apps' | 'nodes'. */
  exceeded: string[];
  /** Whether this installation can issue licenses that it accepts itself (no vendor key configured). */
  self_issued: boolean;
}
