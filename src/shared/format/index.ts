export { formatNumber, formatUsd } from './numbers.ts'
export { cutText, graphemeCount } from './text.ts'
export { formatDateTime, formatLongDate, formatRelativeTime } from './dates.ts'
