/** The permissions marketing messages need beyond the first login's; asked only when a page turns them on. */
export const MARKETING_PERMISSIONS = ['ads_management', 'paid_marketing_messages'] as const
