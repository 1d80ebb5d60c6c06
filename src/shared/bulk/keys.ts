/**
 * The query key of the owner's bulk jobs as the server records them (src/shared/bulk/server-jobs.ts): a module
 * of its own, so the live stream's code can name it without the list's schema and its library.
 */
export const SERVER_JOBS_KEY = ['bulk', 'server-jobs'] as const
