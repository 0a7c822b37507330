import { describe, expect, it } from 'vitest';
import { LicenseType, licenseCreateSchema, type License } from '@fastgate/core/entities/license';
import { licenseInitialValues, licenseToBody, licenseToValues, type LicenseValues } from './values';

const row: License = {
  id: 'l1', name: 'Acme', email: 'ops@example.com', phone: '', type: LicenseType.Trial, node: 0, user_count: 50, app_count: 0, expires_at: '',
  is_node_visible: true, remark: '', nodes: [{ ip: '10.0.0.1', mac: '', node_id: 'n1' }], sign: 'sig', secret_key: 'FGL1.x', status: 1, created_at: '', updated_at: '',
};

describe('license form values', () => {
  it('starts a new license from the declared defaults, "unlimited" and "never" shown empty', () => {
    expect(licenseInitialValues).toMatchObject({ type: LicenseType.Commercial, is_node_visible: false, status: 1, nodes: [], node: undefined, expires_at: undefined });
    expect(licenseCreateSchema.safeParse(licenseToBody({ ...licenseInitialValues, name: 'New' } as LicenseValues)).success).toBe(true);
  });

  it('round-trips an issued license through the form into a valid request, without its signature', () => {
    const values = licenseToValues(row) as LicenseValues;
    expect(values).toMatchObject({ name: 'Acme', user_count: 50, node: undefined, app_count: undefined, expires_at: undefined });
    expect(values).not.toHaveProperty('sign');
    const body = licenseToBody(values);
    expect(body).toMatchObject({ user_count: 50, node: 0, expires_at: '', nodes: row.nodes, type: LicenseType.Trial });
    expect(licenseCreateSchema.safeParse(body).success).toBe(true);
  });
});
