export { LiveConnection, type LiveConnectionProps } from './components/live-connection.tsx'
export type { LiveDeps, LiveQueryKeys } from './model/dispatch.ts'
