/** The chat with one customer: header, history (oldest first) and the reply box under the messaging policy. */
import { buttonLink } from '../../../shared/ui/button-styles.ts'
import {
  createContext,
  lazy,
  startTransition,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { msg } from '@lingui/core/macro'
import type { GraphClient } from '../../../core/graph/types.ts'
import { graphErrorText } from '../../../core/graph/error-words.ts'
import { type WindowOptions, type WindowStatus, windowStatus } from '../../../core/policy/window.ts'
import { notify } from '../../../shared/notifications/index.ts'
import { registerOpenChat } from '../../../shared/live/changes.ts'
import { useReceipts } from '../../../shared/live/use-receipts.ts'
import { useHistory } from '../api/use-history.ts'
import { useReplies } from '../api/use-replies.ts'
import { ChatHeader } from './chat-header.tsx'
import { ChatHistory } from './chat-history.tsx'
import { Composer, type ComposerProps, type ComposerToolsProps } from './composer.tsx'
import { SavedRepliesButton } from './saved-replies.tsx'
import { compressImage } from '../model/compress-image.ts'
import { useClientConfig } from '../../../shared/config/index.ts'
import { AskToSubscribe, type AskToSubscribeProps } from './ask-to-subscribe.tsx'
import { optinRequestsKey } from '../api/optin-requests.ts'
import { openModal, useModalOpen } from '../../../shared/ui/modal-stack.ts'
import type { UpdateSheetProps } from './update-sheet.tsx'

export interface ChatCustomer {
  conversationId: string
  id: string
  name: string
  updatedAt: number
  /** What the conversation cache knows; the history read on opening refines it. */
  lastCustomerMessageAt?: number
}

export interface ChatViewProps {
  pageId: string
  customer: ChatCustomer
  graph: GraphClient
  pageToken: string | undefined
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  windowOptions: WindowOptions
  online: boolean
  trial: boolean
  pictureUrl?: string
  /** The conversation on the network; without it the name is plain text. */
  profileUrl?: string
  /** Uploads a photo, telling the bytes sent so far and their total; resolves its URL. */
  uploadImage: (file: File, onProgress?: (sent: number, total: number) => void) => Promise<string>
  onCustomerMessageAt: (conversationId: string, at: number | undefined) => void
  /** Back to the conversation list, on screens that show one pane at a time. */
  onBack?: () => void
  /** The customer's labels, shown in the header (the page's labels feature draws them). */
  labels?: ReactNode
  /** Set while the conversation needs a reply: "Mark as done". */
  onMarkDone?: () => void
  /** The names of the page's other people writing a reply here now. */
  replying?: readonly string[]
  /** Told as the reply is typed (the caller tells the page's other people, throttled). */
  onTyping?: () => void
}

/** The window notice is re-evaluated this often, so a window closing while the chat is open shows. */
const WINDOW_TICK_MS = 30_000

const refusals = {
  needs_human_agent: msg`More than 24 hours have passed since the customer's last message.`,
  closed: msg`More than 7 days have passed since the customer's last message.`,
  no_customer_message: msg`The customer has not written to the page recently.`,
} as const

/** What the tool row's "Ask to subscribe" needs of the chat (the row's component is defined once). */
const AskContext = createContext<AskToSubscribeProps | undefined>(undefined)
/** What the tool row's "Send an update" needs of the chat; absent inside the window (a reply is the way). */
const UpdateContext = createContext<UpdateSheetProps | undefined>(undefined)

// The sheet loads when it is first opened.
const UpdateSheet = lazy(() => import('./update-sheet.tsx').then((m) => ({ default: m.UpdateSheet })))

/** "Send an update": outside the window, a utility message from a template is how the page reaches the customer. */
function SendUpdate() {
  const update = useContext(UpdateContext)
  const open = useModalOpen('send-update')
  if (!update) return null
  return (
    <>
      <button
        type="button"
        data-testid="send-update"
        onClick={() => openModal('send-update')}
        className={buttonLink}
      >
        <Trans>Send an update</Trans>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <UpdateSheet {...update} />
        </Suspense>
      ) : null}
    </>
  )
}

/** The reply box's tool row: the saved replies, and the opt-in request when the page's marketing is on. */
function ChatTools({ disabled, insert }: ComposerToolsProps) {
  const ask = useContext(AskContext)
  return (
    <>
      <SavedRepliesButton disabled={disabled} onPick={insert} />
      <SendUpdate />
      {ask ? <AskToSubscribe {...ask} /> : null}
    </>
  )
}

/** Opt-in requests go out only inside the standard window, whatever the reply policy. */
const OPTIN_WINDOW = { policy: 'current', humanAgentEnabled: false } as const

/**
 * False for a newly opened chat's first frame, true once it has been painted: the frame (its header, the
 * place of its history) shows at once, and what reads the history, the receipts and the labels, and draws
 * them, comes in the frames after, in slices the browser may interrupt.
 */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)))
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [])
  return painted
}

export function ChatView(props: ChatViewProps) {
  const { customer } = props
  const painted = usePainted()
  return (
    <section data-testid="chat-view" data-chat-open className="flex min-h-0 min-w-0 flex-1 flex-col bg-white">
      <ChatHeader
        name={customer.name}
        pictureUrl={props.pictureUrl}
        profileUrl={props.profileUrl}
        updatedAt={customer.updatedAt}
        onBack={props.onBack}
        extra={painted ? props.labels : null}
        onMarkDone={props.onMarkDone}
      />
      {painted ? <ChatBody {...props} /> : <div data-testid="chat-opening" className="min-h-0 flex-1" />}
    </section>
  )
}

/** The history, who else is replying and the reply box, with what reads and sends them. */
function ChatBody(props: ChatViewProps) {
  const { pageId, customer, graph, pageToken, withToken, windowOptions, online, trial } = props
  const { i18n, t } = useLingui()
  const [bottomSignal, setBottomSignal] = useState(0)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), WINDOW_TICK_MS)
    return () => clearInterval(id)
  }, [])
  const { onCustomerMessageAt } = props
  const conversationId = customer.conversationId
  // While this chat is on screen, a new message in it is read, not counted unread.
  useEffect(() => registerOpenChat({ pageId, conversationId }), [pageId, conversationId])
  const receipts = useReceipts(pageId, customer.id)
  const history = useHistory({
    pageId,
    conversationId,
    graph,
    pageToken,
    withToken,
    onCustomerMessageAt: useCallback(
      (at: number | undefined) => onCustomerMessageAt(conversationId, at),
      [onCustomerMessageAt, conversationId],
    ),
  })
  const last = Math.max(history.customerMessageAt ?? -Infinity, customer.lastCustomerMessageAt ?? -Infinity)
  const status = useMemo(
    () => windowStatus(Number.isFinite(last) ? last : undefined, now, windowOptions),
    [last, now, windowOptions],
  )
  const refusal = useCallback(
    (s: WindowStatus) => (s.reason in refusals ? i18n._(refusals[s.reason as keyof typeof refusals]) : ''),
    [i18n],
  )
  const inOptInWindow =
    windowStatus(Number.isFinite(last) ? last : undefined, now, OPTIN_WINDOW).reason === 'standard'
  const { reload } = history
  const onDelivered = useCallback(() => {
    void reload().then(() => setBottomSignal((n) => n + 1))
  }, [reload])
  const replies = useReplies({
    pageId,
    conversationId,
    recipientId: customer.id,
    graph,
    pageToken,
    withToken,
    windowOptions,
    currentStatus: status,
    refusal,
    onDelivered,
  })

  const config = useClientConfig()
  const queryClient = useQueryClient()
  const ask = useMemo<AskToSubscribeProps>(
    () => ({
      pageId,
      entered: !!pageToken,
      customerId: customer.id,
      customerName: customer.name,
      inWindow: inOptInWindow,
      send: (psid, title) =>
        withToken(async (token) => {
          // The marketing client loads with the first request sent.
          const { createMarketingGraph } = await import('../../../core/graph/marketing.ts')
          const graph = createMarketingGraph({ baseUrl: config.graphUrl, version: config.graphVersion })
          return graph.sendOptInRequest(token, psid, { title, payload: `optin:${title}` })
        }),
      onSent: () => {
        onDelivered()
        void queryClient.invalidateQueries({
          queryKey: optinRequestsKey(pageId, conversationId, customer.id),
        })
      },
    }),
    [
      pageId,
      pageToken,
      conversationId,
      customer.id,
      customer.name,
      inOptInWindow,
      withToken,
      config,
      onDelivered,
      queryClient,
    ],
  )

  const update = useMemo<UpdateSheetProps | undefined>(
    () =>
      inOptInWindow || !pageToken
        ? undefined
        : {
            pageId,
            customerId: customer.id,
            customerName: customer.name,
            graph,
            withToken,
            onSent: onDelivered,
          },
    [inOptInWindow, pageToken, pageId, customer.id, customer.name, graph, withToken, onDelivered],
  )

  const onSend: ComposerProps['onSend'] = async (text, image, onProgress) => {
    let imageUrl: string | undefined
    if (image) {
      try {
        // A phone photo is made small here, so the upload is quick over a weak link.
        const small = await compressImage(image)
        onProgress?.(0, small.size)
        imageUrl = await props.uploadImage(small, onProgress)
      } catch {
        return false
      }
    }
    const { entry, outcome } = await replies.send(text, imageUrl)
    if (outcome?.result === 'failed') {
      await replies.discard(entry.id)
      notify({
        kind: 'error',
        title: t`Message rejected`,
        message: graphErrorText(outcome.kind),
        detail: outcome.error,
        // Kept until closed (docs/product-rules.md#error-catalogue).
        persistent: true,
      })
      return false
    }
    setBottomSignal((n) => n + 1)
    return true
  }

  return (
    <>
      <ChatHistory
        pageId={pageId}
        conversationId={conversationId}
        customerId={customer.id}
        online={online && !!pageToken}
        messages={history.messages}
        pending={replies.pending}
        loadingOlder={history.loadingOlder}
        complete={history.complete}
        bottomSignal={bottomSignal}
        receipts={receipts}
        onLoadOlder={history.loadOlder}
        onDiscard={(id) => void replies.discard(id)}
      />
      {props.replying?.length ? (
        <p
          data-testid="chat-replying"
          aria-live="polite"
          className="border-t border-gray-100 px-3 py-1 text-xs text-gray-600"
        >
          <Trans>
            <bdi>{props.replying[0]}</bdi> is replying…
          </Trans>
        </p>
      ) : null}
      <AskContext.Provider value={ask}>
        <UpdateContext.Provider value={update}>
          <Composer
            status={status}
            online={online}
            trial={trial}
            onSend={onSend}
            Tools={ChatTools}
            onTyping={props.onTyping}
          />
        </UpdateContext.Provider>
      </AskContext.Provider>
    </>
  )
}
