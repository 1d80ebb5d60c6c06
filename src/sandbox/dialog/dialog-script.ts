/** The login dialog's script, served as a file so the page needs no inline script (strict CSP). */
export const DIALOG_SCRIPT = `(() => {
  const form = document.getElementById('login');
  const send = (response) => {
    document.body.dataset.result = JSON.stringify(response);
    if (window.opener) {
      window.opener.postMessage({ type: 'pagecast:sandbox-login', response }, location.origin);
      window.close();
    }
  };
  document.getElementById('cancel').addEventListener('click', () => send({ status: 'unknown', authResponse: null }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const boxes = [...form.querySelectorAll('input[name="scope"]')];
    const user = form.querySelector('input[name="user"]:checked')?.value ?? 'demo';
    const res = await fetch('grant', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: form.dataset.clientId,
        user,
        granted: boxes.filter((b) => b.checked).map((b) => b.value),
        declined: boxes.filter((b) => !b.checked).map((b) => b.value),
      }),
    });
    send(res.ok ? await res.json() : { status: 'unknown', authResponse: null });
  });
  // The page is drawn before this deferred script runs: its buttons wait disabled until they can answer.
  for (const button of form.querySelectorAll('button')) button.disabled = false;
})();
`
