// What a client may read of an upstream failure (docs/ORIGINAL-GATEWAY.md §1.18): an upstream's error text can
// carry the provider key's prefix, the organisation or the billing state of the operator's account.
// Texts on the caller's shield list (user_shield_error, or reseller_shield_error for reseller accounts)
// are replaced by a neutral message with the trace id; not_shield_error texts always pass through.
import type { Role } from '@fastgate/core/constants';
import type { ErrorTextSection, SysConfig } from '@fastgate/core/sys-config';

const has = (section: ErrorTextSection, text: string) => section.open && section.errors.some((e) => e && text.toLowerCase().includes(e.toLowerCase()));

export function shieldMessage(sys: Pick<SysConfig, 'user_shield_error' | 'reseller_shield_error' | 'not_shield_error'>, role: Role, message: string, traceId: string): string {
  if (role === 'admin' || has(sys.not_shield_error, message)) return message;
  const list = role === 'reseller' ? sys.reseller_shield_error : sys.user_shield_error;
  return has(list, message) ? `The upstream service could not complete the request; please contact the administrator (trace id ${traceId}).` : message;
}
