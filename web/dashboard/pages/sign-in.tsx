import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { signIn, type SessionInfo } from '../api.js';
import { useAction } from '../hooks.js';
import { Button, Field, FormError } from '../ui.js';

/** The only page without a session: one root key in, a session cookie out (the key is not kept). */
export function SignIn({ notice, onSignedIn }: { notice: string; onSignedIn: (session: SessionInfo) => void }): JSX.Element {
  const [rootKey, setRootKey] = useState('');
  const action = useAction();
  const submit = async (): Promise<void> => {
    const session = await action.run(() => signIn(rootKey.trim()));
    if (session) onSignedIn(session);
  };
  return (
    <div class="signin">
      <form class="signin-card" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
        <div class="brand brand-large"><span class="brand-mark" aria-hidden="true">◆</span> keygate</div>
        <h1>Sign in</h1>
        <p class="muted">Use a root key. The dashboard can then do exactly what that key may do, nothing more.</p>
        {notice && <div class="notice" role="status">{notice}</div>}
        <Field label="Root key" hint="This browser keeps only a session cookie that scripts cannot read; the key itself is not stored.">
          <input class="mono" type="password" name="rootKey" autoComplete="off" spellcheck={false} required value={rootKey}
            placeholder="kgroot_…" onInput={(e) => setRootKey(e.currentTarget.value)} autoFocus />
        </Field>
        <FormError error={action.error} />
        <Button variant="primary" type="submit" busy={action.busy} disabled={rootKey.trim() === ''}>Sign in</Button>
        <p class="field-hint">No root key yet? Start keygate with <code>ROOT_KEY=…</code> or run <code>npx keygate root-key create --all-permissions</code>.</p>
      </form>
    </div>
  );
}
