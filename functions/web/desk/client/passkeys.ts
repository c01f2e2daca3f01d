/*
 * The desk's passkey buttons (bundled with @simplewebauthn/browser into
 * /desk/assets/passkeys.<hash>.js): sign in with a passkey on the sign-in page, register one on
 * the passkeys page. Each ceremony asks the desk for options, lets the browser and the
 * authenticator answer, and sends the answer back as a form field; the desk checks everything.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

type Json = Record<string, unknown>;

async function post(url: string, fields: Record<string, string>): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as Json;
  if (!response.ok) throw new Error(typeof body['error'] === 'string' ? body['error'] : `the desk answered ${response.status}`);
  return body;
}

function say(text: string): void {
  const status = document.getElementById('passkey-status');
  if (status) status.textContent = text;
}

function wire(button: HTMLButtonElement, ceremony: () => Promise<void>): void {
  button.hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    ceremony()
      .catch((error: unknown) =>
        say(
          error instanceof Error && error.name === 'NotAllowedError'
            ? 'Cancelled: nothing was changed.'
            : `${error instanceof Error ? error.message : String(error)}.`,
        ),
      )
      .finally(() => {
        button.disabled = false;
      });
  });
}

function signIn(button: HTMLButtonElement): void {
  wire(button, async () => {
    say('Waiting for your passkey…');
    const { challengeId, options } = (await post(button.dataset['options'] ?? '', {})) as { challengeId: string; options: never };
    const response = await startAuthentication({ optionsJSON: options });
    const next = button.dataset['next'];
    const done = await post(button.dataset['verify'] ?? '', { challengeId, payload: JSON.stringify(response), ...(next ? { next } : {}) });
    say('Signed in.');
    window.location.assign(String(done['redirect']));
  });
}

function register(button: HTMLButtonElement): void {
  wire(button, async () => {
    const csrf = button.dataset['csrf'] ?? '';
    const name = (document.getElementById('passkey-name') as HTMLInputElement | null)?.value ?? '';
    say('Follow your browser: it asks your device to make a passkey…');
    const { challengeId, options } = (await post(button.dataset['options'] ?? '', { csrf })) as { challengeId: string; options: never };
    const response = await startRegistration({ optionsJSON: options });
    await post(button.dataset['verify'] ?? '', { csrf, challengeId, name, payload: JSON.stringify(response) });
    say('Passkey registered.');
    window.location.reload();
  });
}

if (browserSupportsWebAuthn()) {
  const signInButton = document.getElementById('passkey-sign-in');
  if (signInButton instanceof HTMLButtonElement) signIn(signInButton);
  const registerButton = document.getElementById('passkey-register');
  if (registerButton instanceof HTMLButtonElement) register(registerButton);
} else {
  say('This browser cannot use passkeys: sign in with an emailed link.');
}
