export { MARKETING_PERMISSIONS } from '../../../shared/marketing/permissions.ts'
