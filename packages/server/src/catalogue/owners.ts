// Owner ids of catalogue records, shared by the access rule and the VIP rules (kept apart so neither
// module imports the other).

/** Owner id of the admin's groups and VIP levels (docs/ORIGINAL-API.md §3.8: admin groups carry user_id 0). */
export const ADMIN_OWNER = 0;
