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

/** A button that asks first: the dialog's confirm button has data-testid="confirm". */
export function ConfirmButton(props: { label: string; question: string; onConfirm: () => void; testid?: string; danger?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" class={props.danger ? 'danger' : ''} data-testid={props.testid} onClick={() => setOpen(true)}>
        {props.label}
      </button>
      {open && (
        <div class="modal-backdrop">
          <div class="modal" role="dialog" aria-modal="true">
            <p>{props.question}</p>
            <div class="row">
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button
                type="button"
                class="danger"
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

export function CopyButton({ text }: { text: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false));
      }}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

export function Card({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="card">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : '—');

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
