/**
 * The name of a plan or of the trial as the owner reads it, in their language. A subscription's `product` is
 * the plan's `title` (src/core/constants/plans.ts) or `trial`; rows written before the Millionaire plan's
 * title was corrected still hold `millionarie`. An unknown product (a plan retired since) is shown as stored.
 */
import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

const NAMES: Record<string, MessageDescriptor> = {
  trial: msg`Trial`,
  starter: msg`Starter`,
  'small business': msg`Small business`,
  marketer: msg`Marketer`,
  pro: msg`Pro`,
  '500k': msg`500k`,
  millionaire: msg`Millionaire`,
  millionarie: msg`Millionaire`,
  reseller: msg`Reseller`,
  enterprise: msg`Enterprise`,
}

export function planName(product: string): string {
  const name = NAMES[product]
  return name ? i18n._(name) : product
}
