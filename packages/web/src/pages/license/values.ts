// License form values ⇄ wire: "unlimited" counts and "never" expires shown empty, nodes edited as rows.
import { licenseResource, type License, type LicenseFields, type LicenseNode } from '@fastgate/core/entities/license';

/** Fields the form may leave empty: "unlimited" counts, "never" expires, text not typed yet. */
type Blank = 'email' | 'phone' | 'node' | 'user_count' | 'app_count' | 'expires_at' | 'remark' | 'nodes';

/** The form's values: the license's fields (core entities/license.ts), nodes as rows being typed. */
export type LicenseValues = Omit<LicenseFields, Blank> & Partial<Pick<LicenseFields, Exclude<Blank, 'nodes'>>> & { nodes?: Partial<LicenseNode>[] };

/** Fields → form values: 0 (unlimited) and "never" show empty. */
const fieldValues = (f: Omit<LicenseFields, 'name'> & { name?: string }): Partial<LicenseValues> => ({
  ...f,
  node: f.node || undefined,
  user_count: f.user_count || undefined,
  app_count: f.app_count || undefined,
  expires_at: f.expires_at || undefined,
});

/** Form values → the create/update body: empty means unlimited, never or none. */
export const licenseToBody = (v: LicenseValues) => ({
  name: v.name.trim(),
  email: v.email?.trim() ?? '',
  phone: v.phone?.trim() ?? '',
  type: v.type,
  node: v.node ?? 0,
  user_count: v.user_count ?? 0,
  app_count: v.app_count ?? 0,
  expires_at: v.expires_at ?? '',
  is_node_visible: v.is_node_visible,
  remark: v.remark ?? '',
  nodes: (v.nodes ?? []).map((n) => ({ ip: n.ip ?? '', mac: n.mac ?? '', node_id: n.node_id ?? '' })),
  status: v.status,
});

export const licenseToValues = (row: License): Partial<LicenseValues> => fieldValues(licenseResource.pick(row));

/** A new license: the declared defaults (commercial, hidden nodes, enabled). */
export const licenseInitialValues = fieldValues(licenseResource.defaults());
