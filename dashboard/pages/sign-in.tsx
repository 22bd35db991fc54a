// The sign-in screen of a visitor without a session: ask for a link by e-mail. The answer is the same whether or
// not the address belongs to a user (the server sends nothing to unknown addresses).
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { t } from '../i18n.js';
import { ErrorLine, PageHeading, fieldValue, Field } from '../ui.js';

export default function SignInPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    setBusy(true);
    setError(null);
    setSentTo(null);
    try {
      await api('POST', '/sign-in-link', { email: address }, { quiet401: true });
      setSentTo(address);
    } catch (e) {
      setError(e instanceof ApiError && e.code === 'invalid' ? new ApiError(400, 'invalid', t('invalidEmail')) : e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="sign-in">
      <PageHeading title={t('signInTitle')} />
      <p>{t('signInIntro')}</p>
      <form onSubmit={submit} class="card">
        <Field label={t('emailAddress')} class="block">
          <input
            type="email"
            name="email"
            required
            autoComplete="email"
            maxLength={254}
            value={email}
            onInput={(e) => setEmail(fieldValue(e))}
          />
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t('sendLink')}
        </button>
      </form>
      <ErrorLine error={error} />
      <div role="status">{sentTo && <p class="ok">{t('linkSent', { email: sentTo })}</p>}</div>
    </div>
  );
}
