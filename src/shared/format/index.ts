export { formatNumber, formatUsd } from './numbers.ts'
export { formatLongDate, formatRelativeTime } from './dates.ts'
