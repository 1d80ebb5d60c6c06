export { formatNumber, formatUsd } from './numbers.ts'
export { formatDateTime, formatLongDate, formatRelativeTime } from './dates.ts'
