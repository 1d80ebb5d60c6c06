/** What the chat hands to "Ask to subscribe" and its sheet (the sheet's own module is loaded on first open). */
export interface AskToSubscribeProps {
  pageId: string
  /** The page is entered (registered with the API): its marketing state may be read. */
  entered: boolean
  customerId: string
  customerName: string
  /** Inside the standard 24-hour window now. */
  inWindow: boolean
  /** Sends the request with the page token; answers the network's message id. */
  send: (psid: string, title: string) => Promise<{ message_id: string }>
  /** The request reached the customer: the chat reads its history again. */
  onSent?: () => void
}
