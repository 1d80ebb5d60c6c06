export { API_BASE, ApiError, api, isApiError, onUnauthorized } from './client.ts'
export { apiToken, clearSessionToken, hasSessionCookie, SESSION_COOKIE } from './session-cookie.ts'
export { notificationsFor } from './error-catalogue.ts'
export { getAvailableMessages, getUser, userQueryKey, userQueryOptions } from './user.ts'
export { extendPageToken, pageStanding, pageStandingKey, registerPage } from './pages.ts'
export {
  cancelScheduledMessage,
  createBulkMessage,
  deleteBulkMessage,
  editScheduledMessage,
  listScheduledMessages,
  scheduleBulkMessage,
} from './messages.ts'
export { uploadImage } from './upload.ts'
export {
  checkOptinRequests,
  getMarketingEstimate,
  getMarketingState,
  getMarketingSubscribers,
  marketingQueryKey,
  startMarketingJob,
} from './marketing.ts'
