// Server messages in both locales (zh-CN primary). The server renders `AppError(code, key)` with the
// caller's locale; core schemas use the same keys for their custom messages so web forms show the same text.
import type { Locale } from './constants';

export const messages = {
  'common.ok': ['成功', 'OK'],
  'common.unknown': ['服务器繁忙, 请稍后再试', 'The server is busy, please try again later'],
  'common.not_found': ['接口不存在', 'No such API'],
  'common.bad_json': ['请求体不是有效的 JSON', 'The request body is not valid JSON'],
  'common.body_too_large': ['请求体过大', 'The request body is too large'],
  'common.invalid_field': ['参数 {field} 不正确: {detail}', 'Invalid field {field}: {detail}'],
  'common.xsrf': ['XSRF 校验失败, 请刷新页面后重试', 'XSRF check failed, please reload the page and try again'],
  'common.record_not_found': ['记录不存在', 'Record not found'],
  'common.unknown_ref': ['参数 {field} 引用的记录不存在: {ids}', 'Field {field} refers to records that do not exist: {ids}'],
  'auth.unauthorized': ['会话超时, 请重新登录', 'Session timed out, please log in again'],
  'auth.bad_credentials': ['账号或密码错误', 'Incorrect account or password'],
  'auth.locked': ['登录失败次数过多, 请{minutes}分钟后再试', 'Too many failed logins, try again in {minutes} minutes'],
  'auth.disabled': ['账号已被禁用', 'This account is disabled'],
  'auth.method_disabled': ['该登录方式未开启', 'This login method is not enabled'],
  'auth.register_disabled': ['暂未开放注册', 'Registration is not open'],
  'auth.retrieve_disabled': ['暂未开放找回密码', 'Password recovery is not enabled'],
  'auth.account_exists': ['账号已存在', 'This account already exists'],
  'auth.email_exists': ['邮箱已被使用', 'This email is already in use'],
  'auth.account_unknown': ['账号不存在', 'No such account'],
  'auth.admin_contact': ['账号不存在, 请联系管理员', 'No such account, please contact an administrator'],
  'auth.email_suffix': ['不支持该邮箱后缀注册', 'Registration with this email domain is not supported'],
  'auth.password_required': ['请输入密码', 'Please enter the password'],
  'auth.code_required': ['请输入验证码', 'Please enter the verification code'],
  'auth.old_password_wrong': ['原密码错误', 'The current password is incorrect'],
  'auth.password_wrong': ['密码错误', 'Incorrect password'],
  'auth.same_password': ['新密码不能与原密码相同', 'The new password must differ from the current one'],
  'code.invalid': ['验证码错误或已过期', 'The verification code is wrong or has expired'],
  'code.too_many_sends': ['验证码发送过于频繁, 请稍后再试', 'Codes were sent too often, please try again later'],
  'code.send_failed': ['验证码发送失败, 请联系管理员', 'The code could not be sent, please contact an administrator'],
  'code.mail_subject': ['验证码', 'Verification code'],
  'code.mail_body': ['您的验证码是 {code}, 15分钟内有效。如非本人操作请忽略。', 'Your verification code is {code}. It is valid for 15 minutes. Ignore this mail if you did not ask for it.'],
  'cert.exists': ['已有审核中或已通过的认证记录', 'A certification is already under review or passed'],
  'cert.not_withdrawable': ['只能撤回审核中的认证', 'Only a certification under review can be withdrawn'],
  'field.name': ['名称为2-30位中文、字母、数字、下划线或中划线', 'Name: 2 to 30 Chinese characters, letters, digits, underscores or hyphens'],
  'field.password_min': ['密码至少6位', 'The password needs at least 6 characters'],
  'field.password_strong': ['密码至少6位, 须包含数字、大小写字母和符号, 不能有空格', 'At least 6 characters with digits, upper and lower case letters and symbols, no spaces'],
  'field.email': ['邮箱格式不正确', 'Invalid email address'],
  'field.phone': ['手机号格式不正确', 'Invalid phone number'],
  'field.code': ['验证码为6位数字', 'The code is 6 digits'],
  'field.profile': ['个人简介最多200个字符', 'The profile has at most 200 characters'],
  'field.passwords_differ': ['两次密码不一致', 'The two passwords differ'],
  'field.id_card': ['证件号码格式不正确', 'Invalid ID number'],
  'key.format': ['密钥格式不正确, 请检查', 'Key format incorrect, please check'],
  'key.exists': ['密钥已存在', 'This key already exists'],
  'field.expires_at': ['时间格式为 YYYY-MM-DD HH:mm:ss', 'Times look like YYYY-MM-DD HH:mm:ss'],
  'export.user_id': ['用户ID', 'User ID'],
  'export.app_id': ['应用ID', 'App ID'],
  'export.app_name': ['应用名称', 'App name'],
  'export.key': ['密钥', 'Key'],
  'export.quota_usd': ['额度($)', 'Quota ($)'],
  'export.expires_at': ['过期时间', 'Expires at'],
  'export.remark': ['备注', 'Remark'],
  'export.unlimited': ['不限', 'Unlimited'],
  'export.after_first_use': ['首次使用后{minutes}分钟', '{minutes} minutes after first use'],
  'export.app_keys': ['应用密钥', 'App keys'],
} as const satisfies Record<string, readonly [string, string]>;

export type MessageKey = keyof typeof messages;

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, key);
}

/** Render a message in a locale, filling `{name}` placeholders. */
export function t(key: MessageKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  const text = messages[key][locale === 'en-US' ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? `{${name}}`));
}
