export type { ClientConfig } from '../contracts/client-config.ts'
export { loadClientConfig, useClientConfig } from './client-config.ts'
