export type { ClientConfig } from '../../core/contracts/client-config.ts'
export { loadClientConfig, useClientConfig } from './client-config.ts'
