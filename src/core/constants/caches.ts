/**
 * Names of the service worker's run-time caches. Renaming one orphans the old cache, so change them only
 * together with a cleanup. Both hold what one user saw (customer pictures, uploaded images): signing out
 * deletes them with the rest of the device's data.
 */
export const PICTURE_CACHE = 'pagecast-pictures-v1'
export const UPLOAD_CACHE = 'pagecast-uploads-v1'
export const USER_CACHES = [PICTURE_CACHE, UPLOAD_CACHE] as const
