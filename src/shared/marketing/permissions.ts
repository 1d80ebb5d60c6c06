/** The permissions marketing messages need beyond the first login's; asked only when a page needs them. */
export const MARKETING_PERMISSIONS = ['ads_management', 'paid_marketing_messages'] as const
