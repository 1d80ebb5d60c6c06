/** A new customer message, for whoever must be told (the page's owners). */
export interface CustomerMessageNotice {
  userIds: string[]
  pageId: string
  pageName: string | null
  customerId: string
  customerName?: string | undefined
  mid: string
  text: string | null
  createdTime: string
}
