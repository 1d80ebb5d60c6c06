/**
 * Gives the load-test user a large allowance the way a customer gets one: a checkout of the largest monthly
 * plan, paid on the sandbox's checkout page (which sends the payment webhook). Best effort: answers whether
 * it worked, so the load test can say which allowance it ran with.
 */
export async function buyLargePlan(baseURL: string, token: string): Promise<boolean> {
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json',
  }
  const checkout = await fetch(`${baseURL}/api/v2/user/subscriptions/checkout`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      price_id: 'plan_enterprise_monthly',
      success_url: `${baseURL}/?paid=1`,
      cancel_url: `${baseURL}/`,
    }),
  })
  if (!checkout.ok) return false
  const { data } = (await checkout.json()) as { data: { url: string } }
  const page = new URL(data.url, baseURL)
  const form = new URLSearchParams(page.searchParams)
  const pay = await fetch(`${baseURL}/sandbox/checkout/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  })
  if (pay.status >= 400) return false
  const available = await fetch(`${baseURL}/api/v2/user/available-messages`, { headers })
  const body = (await available.json()) as { available_messages?: number }
  return (body.available_messages ?? 0) >= 100_000
}
