/** Building blocks every page uses: layout, buttons, forms, dialogs, and the designed states. */
import type { ButtonHTMLAttributes, ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiFailure } from './api.js';
import type { Async } from './hooks.js';

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
  type?: 'button' | 'submit';
  disabled?: boolean;
};

export function Button({ variant = 'secondary', busy = false, type = 'button', children, disabled, ...rest }: ButtonProps): JSX.Element {
  return (
    <button {...rest} type={type} class={`btn btn-${variant}${busy ? ' is-busy' : ''}`} disabled={disabled || busy} aria-busy={busy}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function Page({ title, subtitle, actions, children }: { title: ComponentChildren; subtitle?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }): JSX.Element {
  return (
    <section class="page">
      <header class="page-head">
        <div>
          <h1>{title}</h1>
          {subtitle && <p class="muted">{subtitle}</p>}
        </div>
        {actions && <div class="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Card({ title, actions, children }: { title?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }): JSX.Element {
  return (
    <div class="card">
      {(title || actions) && <div class="card-head">{title && <h2>{title}</h2>}{actions && <div class="card-actions">{actions}</div>}</div>}
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…', rows = 3 }: { label?: string; rows?: number }): JSX.Element {
  return (
    <div class="state state-loading" role="status" aria-live="polite">
      <span class="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => <div key={i} class="skeleton" style={{ width: `${92 - i * 14}%` }} />)}
    </div>
  );
}

export function Empty({ title, children, action }: { title: string; children?: ComponentChildren; action?: ComponentChildren }): JSX.Element {
  return (
    <div class="state state-empty">
      <div class="state-icon" aria-hidden="true">○</div>
      <h3>{title}</h3>
      {children && <p class="muted">{children}</p>}
      {action && <div class="state-action">{action}</div>}
    </div>
  );
}

/** 403s name the permission the root key lacks; everything else says what failed and offers a retry. */
export function ErrorState({ error, onRetry }: { error: ApiFailure; onRetry?: () => void }): JSX.Element {
  const title = error.status === 403 ? 'Your root key may not see this'
    : error.status === 0 ? 'keygate is not reachable'
      : error.status === 404 && error.type.endsWith('procedure_not_found') ? 'Not available on this server'
        : 'Something went wrong';
  return (
    <div class="state state-error" role="alert">
      <div class="state-icon" aria-hidden="true">!</div>
      <h3>{title}</h3>
      <p class="muted">{error.detail}</p>
      {onRetry && error.status !== 403 && <div class="state-action"><Button onClick={onRetry}>Retry</Button></div>}
    </div>
  );
}

/** The designed states of a loaded value: skeleton, error (with retry), empty, or the content. */
export function AsyncView<T>({ value, isEmpty, empty, children, rows }: {
  value: Async<T> & { reload: () => void };
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  rows?: number;
  children: (data: T) => ComponentChildren;
}): JSX.Element {
  if (value.data === undefined) {
    if (value.state === 'error') return <ErrorState error={value.error} onRetry={value.reload} />;
    return <Loading rows={rows ?? 3} />;
  }
  if (value.state === 'error') {
    return <>{<div class="inline-error" role="alert">Could not refresh: {value.error.detail} <button class="link" onClick={value.reload}>Retry</button></div>}{children(value.data)}</>;
  }
  if (isEmpty?.(value.data) && empty) return <>{empty}</>;
  return <>{children(value.data)}</>;
}

export function FormError({ error }: { error: ApiFailure | null }): JSX.Element | null {
  if (!error) return null;
  return <div class="form-error" role="alert"><strong>{error.status === 403 ? 'Not allowed. ' : ''}</strong>{error.detail}</div>;
}

export function Field({ label, hint, children, wide }: { label: string; hint?: ComponentChildren; children: ComponentChildren; wide?: boolean }): JSX.Element {
  return (
    <div class={`field${wide ? ' field-wide' : ''}`}>
      {/* The hint stays outside the label, so the control's accessible name is the label alone. */}
      <label class="field-control">
        <span class="field-label">{label}</span>
        {children}
      </label>
      {hint && <span class="field-hint">{hint}</span>}
    </div>
  );
}

export function Modal({ title, onClose, children, footer, wide }: { title: string; onClose: () => void; children: ComponentChildren; footer?: ComponentChildren; wide?: boolean }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const key = (e: KeyboardEvent): void => { if (e.key === 'Escape') onClose(); };
    addEventListener('keydown', key);
    box.current?.querySelector<HTMLElement>('input, select, textarea, button.btn-primary')?.focus();
    return () => removeEventListener('keydown', key);
  }, []);
  return (
    <div class="modal-backdrop" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div class={`modal${wide ? ' modal-wide' : ''}`} role="dialog" aria-modal="true" aria-label={title} ref={box}>
        <div class="modal-head">
          <h2>{title}</h2>
          <button class="icon-btn" aria-label="Close" onClick={onClose}>×</button>
        </div>
        <div class="modal-body">{children}</div>
        {footer && <div class="modal-foot">{footer}</div>}
      </div>
    </div>
  );
}

/** A form inside a dialog: Enter submits; the submit button shows progress. */
export function FormModal({ title, submitLabel, busy, error, onSubmit, onClose, children, wide }: {
  title: string; submitLabel: string; busy: boolean; error: ApiFailure | null; onSubmit: () => void; onClose: () => void; children: ComponentChildren; wide?: boolean;
}): JSX.Element {
  return (
    <Modal title={title} onClose={onClose} wide={wide ?? false}>
      <form class="form" onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
        {children}
        <FormError error={error} />
        <div class="modal-foot">
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" busy={busy}>{submitLabel}</Button>
        </div>
      </form>
    </Modal>
  );
}

export function ConfirmModal({ title, children, confirmLabel, busy, error, onConfirm, onClose }: {
  title: string; children: ComponentChildren; confirmLabel: string; busy: boolean; error: ApiFailure | null; onConfirm: () => void; onClose: () => void;
}): JSX.Element {
  return (
    <Modal title={title} onClose={onClose} footer={<><Button onClick={onClose}>Cancel</Button><Button variant="danger" busy={busy} onClick={onConfirm}>{confirmLabel}</Button></>}>
      <div class="confirm-text">{children}</div>
      <FormError error={error} />
    </Modal>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A secret shown once: copy it now, it cannot be shown again. */
export function RevealOnce({ title, secret, children, onDone }: { title: string; secret: string; children?: ComponentChildren; onDone: () => void }): JSX.Element {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const field = useRef<HTMLElement>(null);
  const selectAll = (): void => {
    const el = field.current;
    if (!el) return;
    const range = document.createRange();
    range.selectNodeContents(el);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  };
  return (
    <Modal title={title} onClose={onDone} footer={<Button variant="primary" onClick={onDone}>I have stored it</Button>}>
      <p class="warning">Copy it now. keygate keeps only a hash of it: it will never be shown again.</p>
      <div class="secret">
        <code ref={field} class="secret-value" aria-label="New secret" data-testid="revealed-secret" onClick={selectAll}>{secret}</code>
        <Button variant="primary" onClick={async () => {
          const ok = await copyText(secret);
          if (!ok) selectAll();
          setCopied(ok ? 'yes' : 'failed');
        }}>{copied === 'yes' ? 'Copied' : 'Copy'}</Button>
      </div>
      {copied === 'failed' && <p class="field-hint">The browser refused the clipboard: the text is selected, copy it with Ctrl+C / ⌘C.</p>}
      {children}
    </Modal>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'good' | 'warn' | 'bad' | 'neutral' | 'info'; children: ComponentChildren }): JSX.Element {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

export function SearchBox({ value, onInput, placeholder }: { value: string; onInput: (value: string) => void; placeholder: string }): JSX.Element {
  return <input class="search" type="search" value={value} placeholder={placeholder} aria-label={placeholder} onInput={(e) => onInput(e.currentTarget.value)} />;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatTime = (ms: number): string => dateFormat.format(new Date(ms));
export const formatCount = (n: number): string => new Intl.NumberFormat().format(n);

export function formatDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** Parses "60s", "5m", "1h", "1d" or plain milliseconds. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d+)\s*(ms|s|m|min|h|d)?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'ms').toLowerCase();
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' || unit === 'min' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000;
  return n * factor;
}
