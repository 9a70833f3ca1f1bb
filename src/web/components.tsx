import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

// Small pieces shared by the pages. Text is always rendered as text (Preact escapes it), never as HTML.

export function ErrorLine({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** The brand mark: three candles in a rounded square, drawn inline (no request, no CDN). */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg class="brand-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path d="M9 8v16M16 6v20M23 10v12" stroke="#c7d2fe" stroke-width="1.6" stroke-linecap="round" />
      <rect x="6.5" y="12" width="5" height="8" rx="1.2" fill="#fff" />
      <rect x="13.5" y="9" width="5" height="10" rx="1.2" fill="#a5b4fc" />
      <rect x="20.5" y="13" width="5" height="6" rx="1.2" fill="#fff" />
    </svg>
  );
}

export function Brand() {
  return (
    <span class="brand">
      <BrandMark />
      <span class="brand-name">Tickerbase</span>
    </span>
  );
}

/** The title of a page with a line saying what it is for. */
export function PageHeader({ title, lead, children }: { title: string; lead?: string; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <div>
        <h1>{title}</h1>
        {lead && <p class="lead">{lead}</p>}
      </div>
      {children && <div class="page-actions">{children}</div>}
    </div>
  );
}

/** What a list without rows says instead: what it will show and what to do to fill it. */
export function EmptyState({ title, children, testid }: { title: string; children: ComponentChildren; testid?: string }) {
  return (
    <div class="empty" data-testid={testid ?? 'empty-state'}>
      <p class="empty-title">{title}</p>
      <div class="empty-body">{children}</div>
    </div>
  );
}

/** A figure with its label, as the cards on top of a dashboard page show them. */
export function Stat({ label, value, hint, testid }: { label: string; value: string; hint?: string; testid?: string }) {
  return (
    <div class="stat">
      <p class="stat-label">{label}</p>
      <p class="stat-value" data-testid={testid}>
        {value}
      </p>
      {hint && <p class="stat-hint">{hint}</p>}
    </div>
  );
}

/** A button that asks first: the dialog's confirm button has data-testid="confirm". */
export function ConfirmButton(props: { label: string; question: string; onConfirm: () => void; testid?: string; danger?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class={props.danger ? 'danger small' : 'small'} data-testid={props.testid} onClick={() => setOpen(true)}>
        {props.label}
      </button>
      {open && (
        <div class="modal-backdrop">
          <div class="modal" role="dialog" aria-modal="true" aria-label={props.label}>
            <p>{props.question}</p>
            <div class="row end">
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button
                type="button"
                class="danger solid"
                data-testid="confirm"
                onClick={() => {
                  setOpen(false);
                  props.onConfirm();
                }}
              >
                {props.label}
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false));
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

export function Card({ title, children, actions, testid }: { title?: string; children: ComponentChildren; actions?: ComponentChildren; testid?: string }) {
  return (
    <section class="card" data-testid={testid}>
      {(title || actions) && (
        <div class="card-head">
          {title && <h2>{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '—');

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
