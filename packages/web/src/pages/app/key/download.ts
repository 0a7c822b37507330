/** docs/ORIGINAL-API.md §2.9: the original console saves app-key exports under this name. */
export const APP_KEY_EXPORT_FILE = '应用密钥.xlsx';
