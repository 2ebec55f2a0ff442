// Sign-in: paste a bearer token, or use the client certificate the browser presented. The token
// goes only into the POST body; it is never put in the URL or in storage.
import { useState } from 'preact/hooks';
import { type SessionInfo, signIn } from '../api';
import { html } from '../html';

export function SignInView(props: { onSignedIn(session: SessionInfo): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (useCertificate: boolean) => {
    setBusy(true);
    setError('');
    try {
      const session = await signIn(useCertificate ? undefined : token.trim());
      setToken('');
      props.onSignedIn(session);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html` <main id="main" class="sign-in">
    <h1>Sign in to svctrail</h1>
    <form
      onSubmit=${(e: Event) => {
        e.preventDefault();
        void submit(false);
      }}
    >
      <label for="token">Bearer token</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck=${false} value=${token} onInput=${(e: Event) => setToken((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled=${busy || token.trim() === ''}>Sign in with token</button>
    </form>
    <p>or</p>
    <button type="button" id="use-certificate" disabled=${busy} onClick=${() => void submit(true)}>Use my client certificate</button>
    ${error ? html`<p role="alert" class="error">${error}</p>` : null}
    <p class="hint">A browser session can only read Services, Events and history, as your user is allowed to.</p>
  </main>`;
}
